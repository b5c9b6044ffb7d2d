import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'
import { sliceContext } from '@/lib/content/slice-context'
import { storySlot } from '@/three/fields'
import { Story } from '@/three/story/Story'

/** Props for `ScrollStory`. */
export type ScrollStoryProps = SliceComponentProps<Content.ScrollStorySlice>

/**
 * A story told by scroll: a 3D stage pinned while the steps scroll past it, its camera, its
 * model's animation and its finish following the visitor (src/three/story). The steps are plain
 * HTML in the server's answer (search engines, screen readers, reader mode); the stage is one
 * image named by the slice's description, showing each step's still until the 3D is live and
 * wherever it cannot be.
 */
export default function ScrollStory({ slice, index, context }: ScrollStoryProps) {
  const { heading, poster, background, steps } = slice.primary
  const { lang, look } = sliceContext(context)
  const slot = storySlot(slice, lang, look)
  const description = slot.description || poster.alt || ''
  const StepHeading = isFilled.keyText(heading) ? 'h3' : 'h2'
  return (
    <section
      className="slice slice-scroll-story"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <Story
        slot={{ ...slot, description }}
        backgrounds={steps.map((step) => step.background || background || null)}
        stills={steps.map((step, i) => (
          <ContentImage
            key={i}
            field={isFilled.image(step.still) ? step.still : poster}
            decorative
            className="story-still-image"
            sizes="(min-width: 56rem) 55vw, 100vw"
            // The first screen's picture: the page's LCP when the story opens it.
            priority={index === 0 && i === 0}
          />
        ))}
      >
        {steps.map((step, i) => (
          <article key={i} className="story-step" data-story-step={i}>
            {isFilled.keyText(step.heading) && <StepHeading>{step.heading}</StepHeading>}
            <PrismicRichText field={step.body} />
          </article>
        ))}
      </Story>
    </section>
  )
}
