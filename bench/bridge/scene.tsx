// The one scene both workers draw: a lit, turning torus knot in MeshStandardMaterial, about the
// weight of the home page's hero. Dragging adds to its turn. On its first frame it reads the
// pixels back and tells the page how many are drawn, so "it renders" is a fact, not a hope.
import { useEffect, useRef } from 'react'
import { addAfterEffect, useFrame, useThree } from '@react-three/fiber'
import type { Mesh, WebGLRenderer } from 'three'
import type { BenchFrame } from './probe'

/** The turn the visitor's drag adds, in radians; each worker fills it from its own input. */
export class Spin {
  private azimuth = 0
  private polar = 0
  add(azimuth: number, polar: number) {
    this.azimuth += azimuth
    this.polar += polar
  }
  /** The turn added since the last frame, which then starts again from none. */
  take() {
    const turn = { azimuth: this.azimuth, polar: this.polar }
    this.azimuth = this.polar = 0
    return turn
  }
}

/** The region to read back, in drawing-buffer pixels (WebGL's origin: bottom left). */
export type Region = { x: number; y: number; width: number; height: number }

/** Where this worker's scene is drawn on its canvas. */
export type RegionOf = (gl: WebGLRenderer) => Region

/**
 * Counts the drawn (non-transparent) pixels of the scene's region right after R3F's first render
 * (the drawing buffer still holds the frame then), posts them, and calls `onFirstFrame`.
 */
function useFirstFrameReport(region: RegionOf, onFirstFrame?: () => void) {
  const gl = useThree((s) => s.gl)
  useEffect(() => {
    const stop = addAfterEffect(() => {
      stop()
      const context = gl.getContext()
      const { x, y, width, height } = region(gl)
      const pixels = new Uint8Array(width * height * 4)
      context.readPixels(x, y, width, height, context.RGBA, context.UNSIGNED_BYTE, pixels)
      let litPixels = 0
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) litPixels++
      const report: BenchFrame = { type: 'bench-frame', litPixels, pixels: width * height }
      self.postMessage(report)
      onFirstFrame?.()
    })
    return stop
  }, [gl, region, onFirstFrame])
}

/** The scene; `spin` is taken every frame. */
export function Knot({
  spin,
  region,
  onFirstFrame,
}: {
  spin: Spin
  region: RegionOf
  onFirstFrame?: () => void
}) {
  const mesh = useRef<Mesh>(null)
  useFirstFrameReport(region, onFirstFrame)
  useFrame((_, delta) => {
    const knot = mesh.current
    if (!knot) return
    const turn = spin.take()
    knot.rotation.y += delta * 0.6 + turn.azimuth
    knot.rotation.x += turn.polar
  })
  return (
    <>
      <ambientLight intensity={0.4} />
      <directionalLight position={[3, 4, 5]} intensity={2} />
      <mesh ref={mesh}>
        <torusKnotGeometry args={[1, 0.32, 256, 32]} />
        <meshStandardMaterial color="#7c5cff" roughness={0.35} metalness={0.2} />
      </mesh>
    </>
  )
}
