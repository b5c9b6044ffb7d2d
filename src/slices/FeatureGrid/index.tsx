import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `FeatureGrid`. */
export type FeatureGridProps = SliceComponentProps<Content.FeatureGridSlice>

/** A grid of short features; the numbered variation is an ordered list of steps. */
export default function FeatureGrid({ slice }: FeatureGridProps) {
  const { heading, intro, features } = slice.primary
  const List = slice.variation === 'numbered' ? 'ol' : 'ul'
  return (
    <section
      className="slice slice-feature-grid"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      {isFilled.richText(intro) && (
        <div className="section-intro">
          <PrismicRichText field={intro} />
        </div>
      )}
      <List className={`feature-list${slice.variation === 'numbered' ? ' is-numbered' : ''}`}>
        {features.map((feature, i) => (
          <li key={i} className="feature">
            {isFilled.keyText(feature.title) && <h3>{feature.title}</h3>}
            <PrismicRichText field={feature.text} />
          </li>
        ))}
      </List>
    </section>
  )
}
