import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ContentImage } from '@/components/ContentImage'
import ThreeSlot from '@/three/ThreeSlot'
import { viewerSlot } from '@/three/fields'

/** Props for `ModelViewer`. */
export type ModelViewerProps = SliceComponentProps<Content.ModelViewerSlice>

/**
 * A 3D model the visitor can turn: its poster and text description first, the live viewer (from
 * src/three) once the page is idle. Without WebGL the poster and the description stand in.
 */
export default function ModelViewer({ slice }: ModelViewerProps) {
  const { heading, poster, caption } = slice.primary
  const slot = viewerSlot(slice)
  return (
    <section
      className="slice slice-model-viewer"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <figure className="model-figure">
        <div className="model-stage" data-3d-slot="model-viewer">
          <ThreeSlot {...slot} description={slot.description || poster.alt || ''}>
            <ContentImage
              field={poster}
              decorative
              className="model-poster"
              sizes="(min-width: 72rem) 72rem, 100vw"
            />
          </ThreeSlot>
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
