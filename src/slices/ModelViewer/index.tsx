import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ArLink } from '@/components/ArLink'
import { ContentImage } from '@/components/ContentImage'
import ThreeSlot from '@/three/ThreeSlot'
import { viewerAr, viewerSlot } from '@/three/fields'

/** Props for `ModelViewer`. */
export type ModelViewerProps = SliceComponentProps<Content.ModelViewerSlice>

/**
 * A 3D model the visitor can turn: its poster and text description first, the live viewer (from
 * src/three) once the page is idle. Without WebGL the poster and the description stand in. When
 * the editor turned AR on, a phone that can place the model in the room gets a link to do so.
 */
export default function ModelViewer({ slice, index }: ModelViewerProps) {
  const { heading, poster, caption } = slice.primary
  const slot = viewerSlot(slice)
  const ar = viewerAr(slice)
  const figureId = `model-viewer-${index + 1}`
  return (
    <section
      className="slice slice-model-viewer"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <figure className="model-figure" id={figureId}>
        <div className="model-stage" data-3d-slot="model-viewer">
          <ThreeSlot {...slot} description={slot.description || poster.alt || ''}>
            <ContentImage
              field={poster}
              decorative
              className="model-poster"
              sizes="(min-width: 72rem) 72rem, 100vw"
            />
          </ThreeSlot>
          {ar.state !== 'off' && <ArLink returnTo={figureId} {...ar} />}
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
