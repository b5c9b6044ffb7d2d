'use client'

// A live viewer's material variants (KHR_materials_variants: the finishes a designer exported in
// one file), as a row of toggle buttons under the stage: choosing one switches the
// model's materials without reloading it. The row names each variant as the model does, or as
// the editor relabels it in the slice; a screen reader hears the choice once it is on screen
// (the slot's live region, ThreeSlot.tsx); the page's URL names it (`?variant=`), so a link opens the model in that
// finish. Part of the canvas host's chunk.
import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import type { SlotEntry } from '../store'
import styles from './variants.module.css'

/** The URL parameter that names a variant. */
export const VARIANT_PARAM = 'variant'

export function VariantRow({ slot, container }: { slot: SlotEntry; container: HTMLElement }) {
  const names = slot.variants ?? []
  const spec = slot.spec.kind === 'viewer' ? slot.spec : null
  const groupLabel = spec?.variantsLabel ?? ''
  const label = (name: string) => spec?.variantLabels?.[name] || name
  // A link that names a variant (`?variant=`) opens the model in it; then the visitor's presses
  // decide. `chosen` is pressed at once; the slot's live region speaks once its materials are on
  // screen (`variant`, as the renderer says), after a press only.
  const [chosen, setChosen] = useState<string | null>(() => {
    const wanted = new URLSearchParams(window.location.search).get(VARIANT_PARAM)
    return wanted && names.includes(wanted) ? wanted : null
  })
  const [pressed, setPressed] = useState(false)
  const shown = slot.variant ?? null
  const announced =
    pressed && shown !== null ? (groupLabel ? `${groupLabel}: ${label(shown)}` : label(shown)) : ''
  const announce = slot.announce
  useEffect(() => {
    if (announced) announce?.(announced)
  }, [announced, announce])

  const send = slot.command
  const linked = useRef(chosen)
  useEffect(() => {
    if (!linked.current || !send) return
    send({ type: 'variant', name: linked.current })
    linked.current = null
  }, [send])

  const choose = (name: string) => {
    setPressed(true)
    setChosen(name)
    slot.command?.({ type: 'variant', name })
    const url = new URL(window.location.href)
    url.searchParams.set(VARIANT_PARAM, name)
    window.history.replaceState(window.history.state, '', url)
  }

  return createPortal(
    <div
      className={styles.row}
      role="group"
      aria-label={groupLabel || undefined}
      data-3d-variants=""
    >
      {names.map((name) => (
        <button
          key={name}
          type="button"
          className={styles.variant}
          aria-pressed={chosen === name}
          data-variant={name}
          onClick={() => choose(name)}
        >
          {label(name)}
        </button>
      ))}
    </div>,
    container,
  )
}
