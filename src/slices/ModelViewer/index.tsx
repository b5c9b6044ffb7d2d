import { isFilled, type Content } from '@prismicio/client'
import { PrismicRichText, type SliceComponentProps } from '@prismicio/react'
import { ArLink } from '@/components/ArLink'
import { ContentImage } from '@/components/ContentImage'
import { sliceContext } from '@/lib/content/slice-context'
import ThreeSlot from '@/three/ThreeSlot'
import { viewerAr, viewerHotspots, viewerSlot } from '@/three/fields'

/** Props for `ModelViewer`. */
export type ModelViewerProps = SliceComponentProps<Content.ModelViewerSlice>

/**
 * A 3D model the visitor can turn: its poster and text description first, the live viewer (from
 * src/three) once the page is idle. Without WebGL the poster and the description stand in. When
 * the editor turned AR on, a phone that can place the model in the room gets a link to do so.
 * The hotspots' labels and details are listed under it as plain content, in the HTML: read by
 * search engines and screen readers, and kept with no WebGL, with Save-Data, before the 3D
 * starts and when the model fails. Once the model is live, each hotspot that has a position is
 * also a button on it (ThreeSlot.tsx), described by its detail here.
 */
export default function ModelViewer({ slice, index, context }: ModelViewerProps) {
  const { heading, poster, caption } = slice.primary
  const figureId = `model-viewer-${index + 1}`
  const hotspotsId = `${figureId}-hotspots`
  const hotspots = viewerHotspots(slice, hotspotsId)
  // The hotspots that can be pinned on the model: the live viewer draws them as buttons over it,
  // each described by its detail in the list below.
  const pins = hotspots.notes.flatMap((note) => (note.pin ? [note.pin] : []))
  const { lang, look } = sliceContext(context)
  const viewer = viewerSlot(slice, lang, look)
  const slot =
    viewer.spec?.kind === 'viewer' && pins.length
      ? { ...viewer, spec: { ...viewer.spec, hotspots: pins } }
      : viewer
  const ar = viewerAr(slice, look)
  // The list's heading is one level below the slice's, or the slice's level when it has none.
  const ListHeading = isFilled.keyText(heading) ? 'h3' : 'h2'
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
      {hotspots.notes.length > 0 && (
        <section
          className="model-hotspots"
          data-hotspots
          aria-labelledby={hotspots.heading ? hotspotsId : undefined}
        >
          {hotspots.heading && <ListHeading id={hotspotsId}>{hotspots.heading}</ListHeading>}
          <ul>
            {hotspots.notes.map((note) => (
              <li key={note.detailId} className="model-hotspot">
                {note.label && <strong className="model-hotspot-label">{note.label}</strong>}
                <div id={note.detailId} className="model-hotspot-detail">
                  <PrismicRichText field={note.detail} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  )
}
