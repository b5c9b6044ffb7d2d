import { isFilled, type Content } from '@prismicio/client'
import { PrismicNextImage } from '@prismicio/next'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import ThreeSlot from '@/three/ThreeSlot'
import { viewerSlot } from '@/three/fields'

/** Props for `ModelViewer`. */
export type ModelViewerProps = SliceComponentProps<Content.ModelViewerSlice>

/** A 3D model the visitor can turn: poster and description first, the live viewer once idle. */
export default function ModelViewer({ slice }: ModelViewerProps) {
  const { heading, poster, caption } = slice.primary
  return (
    <section
      className="slice slice-model-viewer"
      data-slice-type={slice.slice_type}
      data-slice-variation={slice.variation}
    >
      {isFilled.keyText(heading) && <h2>{heading}</h2>}
      <figure>
        <div data-3d-slot="">
          <ThreeSlot {...viewerSlot(slice)}>
            {isFilled.image(poster) && (
              <PrismicNextImage field={poster} alt="" sizes="(min-width: 64rem) 60vw, 100vw" />
            )}
          </ThreeSlot>
        </div>
        <figcaption>
          <PrismicRichText field={caption} />
        </figcaption>
      </figure>
    </section>
  )
}
