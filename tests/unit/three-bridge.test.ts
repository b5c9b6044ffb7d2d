import { describe, expect, it, vi } from 'vitest'
import { debugFlags } from '@/three/CanvasHost'
import { createSceneStore } from '@/three/render/scene-store'
import type { SceneSlot } from '@/three/protocol'

const slot = (id: string, top: number): SceneSlot => ({
  id,
  spec: { kind: 'viewer', url: 'http://127.0.0.1/models/lamp.glb', autoRotate: false },
  reducedMotion: false,
  visible: true,
  rect: { left: 0, top, width: 400, height: 300 },
})

describe('?debug3d flags', () => {
  it('turns the hook on, and reads comma-separated flags', () => {
    expect(debugFlags('')).toEqual({ hook: false, motion: false, main: false })
    expect(debugFlags('?debug3d')).toEqual({ hook: true, motion: false, main: false })
    expect(debugFlags('?debug3d=motion,main')).toEqual({ hook: true, motion: true, main: true })
    expect(debugFlags('?debug3d=main')).toEqual({ hook: true, motion: false, main: true })
  })
})

describe("the renderer's scene store", () => {
  it('keeps the newest rectangle of a slot the page describes again', () => {
    const store = createSceneStore()
    store.setSlots([slot('a', 0)])
    store.setRects({ a: { left: 0, top: -120, width: 400, height: 300 } })
    // A later slot list (visibility changed) carries the rectangle measured with it, older.
    store.setSlots([{ ...slot('a', 0), visible: false }])
    expect(store.get('a')).toMatchObject({ visible: false, rect: { top: -120 } })
  })

  it('re-renders on a new slot list, not on new rectangles (frame callbacks read those)', () => {
    const store = createSceneStore()
    const listener = vi.fn()
    store.subscribe(listener)
    store.setSlots([slot('a', 0), slot('b', 900)])
    store.setRects({ b: { left: 0, top: 400, width: 400, height: 300 }, gone: slot('x', 0).rect })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(store.get('b')?.rect.top).toBe(400)
    expect(store.get('gone')).toBeUndefined()
    expect(store.slots().map((s) => s.id)).toEqual(['a', 'b'])
  })

  it("routes a viewer's commands to its handler, and drops them once it is gone", () => {
    const store = createSceneStore()
    const handler = vi.fn()
    store.setCommand('a', handler)
    store.command('a', { type: 'reset' })
    store.command('b', { type: 'reset' })
    store.setCommand('a', null)
    store.command('a', { type: 'zoom', factor: 0.85 })
    expect(handler.mock.calls).toEqual([[{ type: 'reset' }]])
  })
})
