'use client'

// What a live viewer shows over its stage, besides the model: its hotspots' buttons
// (HotspotLayer.tsx) and its model's material variants (VariantRow.tsx). Part of the canvas
// host's chunk; each goes into the slot's overlay (`[data-3d-overlay]`, ThreeSlot.tsx).
import { Fragment, useSyncExternalStore } from 'react'
import { threeStore } from './store'
import { HotspotLayer } from './HotspotLayer'
import { VariantRow } from './VariantRow'

/** The overlays of every live viewer on the page. */
export function ViewerOverlays() {
  useSyncExternalStore(threeStore.subscribe, threeStore.version, threeStore.version)
  return threeStore.slots().map((slot) => {
    if (slot.status !== 'live' || slot.spec.kind !== 'viewer') return null
    const container = slot.element.parentElement?.querySelector<HTMLElement>('[data-3d-overlay]')
    if (!container) return null
    const hotspots = slot.spec.hotspots ?? []
    return (
      <Fragment key={slot.id}>
        {hotspots.length > 0 && (
          <HotspotLayer slot={slot} hotspots={hotspots} container={container} />
        )}
        {(slot.variants?.length ?? 0) > 0 && <VariantRow slot={slot} container={container} />}
      </Fragment>
    )
  })
}
