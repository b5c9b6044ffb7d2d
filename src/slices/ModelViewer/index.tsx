import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ContentImage, imageRole } from '@/components/ContentImage'

/** Props for `ModelViewer`. */
export type ModelViewerProps = SliceComponentProps<Content.ModelViewerSlice>

/**
 * A 3D model: its poster, its text description and a caption. The live viewer (from src/three)
 * mounts in the `data-3d-slot` wrapper; until then, and without WebGL, the poster stands in.
 */
export default function ModelViewer({ slice }: ModelViewerProps) {
  const { heading, poster, description, caption } = slice.primary
  return (
    <section
      className="slice slice-model-viewer"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <figure className="model-figure">
        <div
          className="model-stage"
          data-3d-slot="model-viewer"
          {...imageRole(description || poster.alt)}
        >
          <ContentImage
            field={poster}
            decorative
            className="model-poster"
            sizes="(min-width: 72rem) 72rem, 100vw"
          />
        </div>
        {isFilled.richText(caption) && (
          <figcaption>
            <PrismicRichText field={caption} />
          </figcaption>
        )}
      </figure>
    </section>
  )
}
