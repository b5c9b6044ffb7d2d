import { describe, expect, it, vi } from 'vitest'
import { debugFlags } from '@/three/CanvasHost'
import {
  askWorker,
  firstPath,
  mainWebGL,
  PROBE_SOURCE,
  PROBE_TIMEOUT_MS,
} from '@/three/webgl-probe'
import { createSceneStore } from '@/three/render/scene-store'
import type { SceneSlot } from '@/three/protocol'
import { DEFAULT_CAMERA, DEFAULT_LOOK } from '@rules/look'

const slot = (id: string, top: number): SceneSlot => ({
  id,
  spec: {
    kind: 'viewer',
    url: 'http://127.0.0.1/models/lamp.glb',
    autoRotate: false,
    animate: true,
    clip: null,
    look: DEFAULT_LOOK,
    camera: DEFAULT_CAMERA,
  },
  reducedMotion: false,
  paused: false,
  visible: true,
  rect: { left: 0, top, width: 400, height: 300 },
})

describe('?debug3d flags', () => {
  it('turns the hook on, and reads comma-separated flags', () => {
    const none = {
      hook: false,
      motion: false,
      main: false,
      model: 'tier',
      pick: false,
      preserve: false,
    }
    expect(debugFlags('')).toEqual(none)
    expect(debugFlags('?debug3d')).toEqual({ ...none, hook: true })
    expect(debugFlags('?debug3d=motion,main')).toEqual({
      ...none,
      hook: true,
      motion: true,
      main: true,
    })
    expect(debugFlags('?debug3d=main')).toEqual({ ...none, hook: true, main: true })
    expect(debugFlags('?debug3d=pick,main')).toEqual({
      ...none,
      hook: true,
      main: true,
      pick: true,
    })
    expect(debugFlags('?debug3d=preserve')).toEqual({ ...none, hook: true, preserve: true })
  })

  it("names the model file to fetch: the tier's variant, the original, or a tier's", () => {
    expect(debugFlags('?debug3d').model).toBe('tier')
    expect(debugFlags('?debug3d=original').model).toBe('original')
    expect(debugFlags('?debug3d=main,tier-low').model).toBe('low')
    expect(debugFlags('?debug3d=tier-high,motion').model).toBe('high')
    // Without the hook, no flag applies: `debug3d` is the switch.
    expect(debugFlags('?original').model).toBe('tier')
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

describe('the first rendering path', () => {
  /**
   * A browser whose OffscreenCanvas gives `context` for `webgl2` and `webgl` (in the probe
   * worker, which runs `PROBE_SOURCE` there), and whose page canvas gives `mainContext` (WebGL 2
   * by default); the page canvas's requests go to `pageAsked`.
   */
  function browser(
    context: (kind: string) => unknown,
    mainContext: (kind: string) => unknown = () => ({ getExtension: () => null }),
  ) {
    const asked: string[] = []
    const main: string[] = []
    class FakeOffscreenCanvas {
      getContext(kind: string) {
        asked.push(kind)
        return context(kind)
      }
    }
    vi.stubGlobal('Worker', class {})
    vi.stubGlobal('HTMLCanvasElement', { prototype: { transferControlToOffscreen() {} } })
    vi.stubGlobal('OffscreenCanvas', FakeOffscreenCanvas)
    vi.stubGlobal('document', {
      createElement: (tag: string) => {
        expect(tag).toBe('canvas')
        return {
          getContext(kind: string) {
            main.push(kind)
            return mainContext(kind)
          },
        }
      },
    })
    pageAsked = main
    return asked
  }
  /** What the last `browser()`'s page canvas was asked for. */
  let pageAsked: string[] = []
  /** The probe worker, as the page sees it: its program run in this scope, and what it posted. */
  const probeWorker = async () => {
    const posted: unknown[] = []
    new Function('postMessage', PROBE_SOURCE)((answer: unknown) => posted.push(answer))
    expect(posted).toHaveLength(1)
    return posted[0] === true
  }

  it('is the worker where a worker gives WebGL, and no context is made on the page', async () => {
    const loseContext = vi.fn()
    const asked = browser(() => ({ getExtension: () => ({ loseContext }) }))
    const askedWorker = vi.fn(probeWorker)
    expect(await firstPath(false, askedWorker)).toBe('worker')
    expect(askedWorker).toHaveBeenCalledTimes(1)
    // The probe's context (in the worker) is released; the page's canvas is never asked.
    expect(asked).toEqual(['webgl2'])
    expect(loseContext).toHaveBeenCalledTimes(1)
    expect(pageAsked).toEqual([])
    vi.unstubAllGlobals()
  })

  it('is the main thread where a worker gives no WebGL (WebKit), after asking for both', async () => {
    const asked = browser(() => null)
    expect(await firstPath(false, probeWorker)).toBe('main')
    expect(asked).toEqual(['webgl2', 'webgl'])
    expect(pageAsked).toEqual(['webgl2'])
    vi.unstubAllGlobals()
  })

  it('takes WebGL 1 where WebGL 2 is missing', async () => {
    browser((kind) => (kind === 'webgl' ? { getExtension: () => null } : null))
    expect(await firstPath(false, probeWorker)).toBe('worker')
    vi.unstubAllGlobals()
  })

  it('is the main thread where asking throws, where OffscreenCanvas is missing, or when forced', async () => {
    browser(() => {
      throw new Error('no')
    })
    expect(await firstPath(false, probeWorker)).toBe('main')
    const asked = browser(() => ({ getExtension: () => null }))
    const askedWorker = vi.fn(probeWorker)
    expect(await firstPath(true, askedWorker)).toBe('main')
    expect(asked).toEqual([])
    expect(askedWorker).not.toHaveBeenCalled()
    vi.stubGlobal('OffscreenCanvas', undefined)
    expect(await firstPath(false, askedWorker)).toBe('main')
    expect(askedWorker).not.toHaveBeenCalled()
    vi.unstubAllGlobals()
  })

  it('is none where no canvas gives WebGL (headless Firefox): the renderer is never fetched', async () => {
    const loseContext = vi.fn()
    const asked = browser(
      () => null,
      () => null,
    )
    expect(await firstPath(false, probeWorker)).toBe('off')
    expect(asked).toEqual(['webgl2', 'webgl'])
    expect(pageAsked).toEqual(['webgl2', 'webgl'])
    expect(await firstPath(true, probeWorker)).toBe('off')
    // Where the page's canvas gives WebGL, its probe context is released at once.
    browser(
      () => null,
      () => ({ getExtension: () => ({ loseContext }) }),
    )
    expect(mainWebGL()).toBe(true)
    expect(loseContext).toHaveBeenCalledTimes(1)
    browser(
      () => null,
      () => {
        throw new Error('no')
      },
    )
    expect(await firstPath(false, probeWorker)).toBe('off')
    vi.unstubAllGlobals()
  })
})

describe('asking the probe worker', () => {
  /** A worker that runs `behave` once its handlers are set, and records its termination. */
  function fakeWorker(behave: (worker: FakeWorker) => void) {
    const made: FakeWorker[] = []
    const create = () => {
      const worker = new FakeWorker()
      made.push(worker)
      queueMicrotask(() => behave(worker))
      return worker as unknown as Worker
    }
    return { create, made }
  }
  class FakeWorker {
    onmessage: ((event: MessageEvent) => void) | null = null
    onerror: ((event: ErrorEvent) => void) | null = null
    terminated = false
    terminate() {
      this.terminated = true
    }
  }

  it("takes the worker's answer, then ends it", async () => {
    for (const answer of [true, false]) {
      const { create, made } = fakeWorker((w) => w.onmessage?.({ data: answer } as MessageEvent))
      expect(await askWorker(create)).toBe(answer)
      expect(made[0]?.terminated).toBe(true)
    }
  })

  it('takes an error, or a worker that cannot be made, as no', async () => {
    const preventDefault = vi.fn()
    const { create, made } = fakeWorker((w) =>
      w.onerror?.({ preventDefault, message: 'failed to load' } as unknown as ErrorEvent),
    )
    expect(await askWorker(create)).toBe(false)
    expect(preventDefault).toHaveBeenCalled()
    expect(made[0]?.terminated).toBe(true)
    expect(
      await askWorker(() => {
        throw new Error('refused by the policy')
      }),
    ).toBe(false)
  })

  it('takes silence as no, after the timeout', async () => {
    vi.useFakeTimers()
    const { create, made } = fakeWorker(() => {})
    const answer = askWorker(create)
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS)
    expect(await answer).toBe(false)
    expect(made[0]?.terminated).toBe(true)
    vi.useRealTimers()
  })
})
