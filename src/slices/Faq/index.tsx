import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `Faq`. */
export type FaqProps = SliceComponentProps<Content.FaqSlice>

/**
 * Questions and answers. Each is a native `<details>` disclosure: keyboard and screen-reader
 * support come from the browser, with no JavaScript.
 */
export default function Faq({ slice }: FaqProps) {
  const { heading, questions } = slice.primary
  return (
    <section
      className="slice slice-faq"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <div className="faq-list">
        {questions.map((item, i) => (
          <details key={i} className="faq-item">
            <summary>{item.question}</summary>
            <div className="faq-answer">
              <PrismicRichText field={item.answer} />
            </div>
          </details>
        ))}
      </div>
    </section>
  )
}
