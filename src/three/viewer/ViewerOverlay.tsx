'use client'

// What a live viewer shows besides the model: its hotspots' buttons over its stage
// (HotspotLayer.tsx, into the slot's overlay, `[data-3d-overlay]`) and its model's material
// variants under it (VariantRow.tsx, into `[data-3d-finishes]`; ThreeSlot.tsx). Part of the
// canvas host's chunk.
import { Fragment } from 'react'
import { threeStore, useStoreInTransition } from '../store'
import { HotspotLayer } from './HotspotLayer'
import { VariantRow } from './VariantRow'

/**
 * The overlays of every live viewer on the page. They follow the store in a transition, not
 * synchronously (`useSyncExternalStore`): the slot that goes live shows its scene in the task
 * that hears it, and its buttons and row mount after, rendered in slices and committed in a task
 * of their own. Traced at 4× CPU, both in the one task were 55–80 ms of the page's thread.
 */
export function ViewerOverlays() {
  useStoreInTransition(threeStore.version, threeStore.version())
  return threeStore.slots().map((slot) => {
    if (slot.status !== 'live' || slot.spec.kind !== 'viewer') return null
    const container = slot.element.parentElement?.querySelector<HTMLElement>('[data-3d-overlay]')
    if (!container) return null
    const hotspots = slot.spec.hotspots ?? []
    // The finishes go under the stage, not over the model (ThreeSlot.tsx holds their place).
    const below = slot.element.parentElement?.querySelector<HTMLElement>('[data-3d-finishes]')
    return (
      <Fragment key={slot.id}>
        {hotspots.length > 0 && (
          <HotspotLayer slot={slot} hotspots={hotspots} container={container} />
        )}
        {(slot.variants?.length ?? 0) > 0 && below && <VariantRow slot={slot} container={below} />}
      </Fragment>
    )
  })
}
