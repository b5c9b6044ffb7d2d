// Approach A's worker: @react-three/offscreen's `render`, which shims a window and document onto
// the transferred canvas and replays the DOM events its page-side Canvas forwards.
import { useEffect, useState } from 'react'
import { useThree } from '@react-three/fiber'
import { render } from '@react-three/offscreen'
import { Knot, Spin, type RegionOf } from './scene'

// The whole canvas is the scene's.
const wholeCanvas: RegionOf = (gl) => ({
  x: 0,
  y: 0,
  width: gl.domElement.width,
  height: gl.domElement.height,
})

/** A drag turns the knot, read from the forwarded pointer events as an orbit control would. */
function DraggedKnot() {
  const [spin] = useState(() => new Spin())
  const target = useThree((s) => s.events.connected) as EventTarget | undefined
  const height = useThree((s) => s.size.height)
  useEffect(() => {
    if (!target) return
    let last: { x: number; y: number } | null = null
    const onMove = (event: Event) => {
      const { clientX, clientY, buttons } = event as PointerEvent
      if (buttons && last) {
        // OrbitControls' scale, as CanvasHost's: a drag across the height is a full turn.
        spin.add(
          (-2 * Math.PI * (clientX - last.x)) / height,
          (-2 * Math.PI * (clientY - last.y)) / height,
        )
      }
      last = { x: clientX, y: clientY }
    }
    target.addEventListener('pointermove', onMove)
    return () => target.removeEventListener('pointermove', onMove)
  }, [target, height, spin])
  return <Knot spin={spin} region={wholeCanvas} />
}

render(<DraggedKnot />)
