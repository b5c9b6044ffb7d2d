// Approach B's worker: what render.worker.ts and renderer.tsx do, cut to the benchmark's one
// scene. It speaks the site's protocol (src/three/protocol.ts): `init` brings the canvas and
// viewport, `slots` the slot, `rects` its rectangle on every scroll, `command` a viewer's turns;
// it answers `ready`, then `live` once the first frame is drawn. The scene is drawn into the
// slot's rectangle of the viewport-sized canvas with scissor and viewport, as drei's View does.
import * as THREE from 'three'
import { createRoot, extend, useFrame, type ReconcilerRoot } from '@react-three/fiber'
import { Knot, Spin, type RegionOf } from './scene'
import type { FromRenderer, Rect, ToRenderer, Viewport } from '../../src/three/protocol'

extend(THREE as unknown as Parameters<typeof extend>[0])

const post = (message: FromRenderer) => self.postMessage(message)
const spin = new Spin()
let root: ReconcilerRoot<OffscreenCanvas> | null = null
let viewport: Viewport = { width: 1, height: 1, dpr: 1 }
let slot: { id: string; rect: Rect } | null = null
/** The last `rects` message's number: `live` says which rectangles the frame was drawn with. */
let seq = 0

/** The slot's rectangle in drawing-buffer pixels, WebGL's origin at the bottom left. */
const slotRegion: RegionOf = (gl) => {
  const dpr = gl.getPixelRatio()
  const { left, top, width, height } = slot!.rect
  return {
    x: Math.round(left * dpr),
    y: Math.round((viewport.height - top - height) * dpr),
    width: Math.round(width * dpr),
    height: Math.round(height * dpr),
  }
}

/** Takes over R3F's render (priority 1): clear the canvas, draw into the slot's rectangle. */
function InRect() {
  useFrame(({ gl, scene, camera }) => {
    if (!slot) return
    const { left, top, width, height } = slot.rect
    gl.setScissorTest(false)
    gl.clear()
    if (top + height < 0 || top > viewport.height) return
    const bottom = viewport.height - top - height
    gl.setViewport(left, bottom, width, height)
    gl.setScissor(left, bottom, width, height)
    gl.setScissorTest(true)
    const perspective = camera as THREE.PerspectiveCamera
    if (perspective.aspect !== width / height) {
      perspective.aspect = width / height
      perspective.updateProjectionMatrix()
    }
    gl.render(scene, camera)
  }, 1)
  return null
}

function draw() {
  const id = slot!.id
  root!.render(
    <>
      <InRect />
      <Knot
        spin={spin}
        region={slotRegion}
        onFirstFrame={() => post({ type: 'live', ids: [id], seq })}
      />
    </>,
  )
}

self.onmessage = (event: MessageEvent<ToRenderer>) => {
  const message = event.data
  switch (message.type) {
    case 'init': {
      viewport = message.viewport
      root = createRoot(message.canvas!)
      const { width, height } = viewport
      root.configure({ size: { width, height, top: 0, left: 0 }, dpr: 1.5 })
      post({ type: 'ready' })
      break
    }
    case 'slots':
      slot = message.slots[0] ?? null
      if (slot) draw()
      break
    case 'rects':
      if (slot && message.rects[slot.id]) slot = { ...slot, rect: message.rects[slot.id] }
      viewport = message.viewport
      seq = message.seq
      break
    case 'command':
      if (message.command.type === 'rotate')
        spin.add(message.command.azimuth, message.command.polar)
      break
  }
}
