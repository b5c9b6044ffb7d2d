import { isFilled, type Content } from '@prismicio/client'
import { PrismicNextImage } from '@prismicio/next'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'

/** Props for `ModelViewer`. */
export type ModelViewerProps = SliceComponentProps<Content.ModelViewerSlice>

/** A 3D model's slice: its poster and description. The live viewer is wired in by the 3D work. */
export default function ModelViewer({ slice }: ModelViewerProps) {
  const { heading, poster, description, caption } = slice.primary
  return (
    <section
      className="slice slice-model-viewer"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <figure>
        {isFilled.image(poster) && <PrismicNextImage field={poster} alt="" />}
        {isFilled.keyText(description) && <p className="visually-hidden">{description}</p>}
        <figcaption>
          <PrismicRichText field={caption} />
        </figcaption>
      </figure>
    </section>
  )
}
