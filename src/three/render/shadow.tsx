// The soft shadow on the ground under a model (look.ts, `shadow`): drei's ContactShadows, which
// draws the model as seen from below into a small texture, blurs it, and lays it on a plane at the
// model's foot, so it follows the model's true footprint, whatever its shape. It is drawn once,
// and again only while the model itself moves (`moving`: a clip playing; `shape`: a story's clip
// scrubbed by the scroll, in the frames that move it): a frame drawn for a turn of the camera, a
// press or a scroll that moves no part costs it nothing. Inside the hero's turntable it turns with
// the model, so a turning model needs no new picture either.
//
// Not in the model's first frame: the shadow's first picture compiles its depth and blur shaders
// and draws five passes, synchronously, and on a software renderer that frame waited for them
// (the early visitor of docs/3d.md). It is drawn in the frame after the model's first, which
// the renderer asks for at once.
import { memo, useEffect, useRef, useState } from 'react'
import { useFrame, useThree } from '@react-three/fiber'
import { ContactShadows } from '@react-three/drei/core/ContactShadows'
import { useHost } from './host-context'

/**
 * `footprint`: the model's widest side on the ground (metres); `height`: how tall it is, over which
 * the shadow fades; `bottom`: its foot's height. `intensity` and `softness`, 0 to 1, the slice's.
 */
export const GroundShadow = memo(function GroundShadow({
  slotId,
  footprint,
  height,
  bottom,
  intensity,
  softness,
  moving,
  shape,
}: {
  /** The slot whose scene this is: its shadow waits for its first frame. */
  slotId: string
  footprint: number
  height: number
  bottom: number
  intensity: number
  softness: number
  moving: boolean
  /** A story's changes to the model's shape (render/story.ts): drawn again in the frames of one. */
  shape?: { count: number }
}) {
  const { tier, drawnOnce } = useHost()
  const invalidate = useThree((s) => s.invalidate)
  const [afterFirstFrame, setAfterFirstFrame] = useState(() => drawnOnce(slotId))
  // Looked at after the views have drawn (priority 3: the renderer's views draw at 1, its
  // bookkeeping at 2), until the model's first frame is out.
  useFrame(() => {
    if (!afterFirstFrame && drawnOnce(slotId)) setAfterFirstFrame(true)
  }, 3)
  // A new shadow (new content in a preview) is drawn at once, as the demand loop idles; and the
  // frame after the model's first, which a demand loop would not otherwise draw.
  useEffect(invalidate, [
    invalidate,
    afterFirstFrame,
    footprint,
    height,
    bottom,
    intensity,
    softness,
  ])
  // While a scroll scrubs the clip, the shadow is drawn in each frame (ContactShadows' `frames`);
  // two frames after the last change, once more and then no longer. Its frame count restarts with
  // each render, so each switch draws it at once. Read after the story has posed the model
  // (priority 0, before the views draw), in the frame of the change.
  const [scrubbing, setScrubbing] = useState(false)
  const seen = useRef({ count: shape?.count ?? 0, still: 0 })
  useFrame(() => {
    if (!shape) return
    const s = seen.current
    if (shape.count !== s.count) {
      s.count = shape.count
      s.still = 0
      if (!scrubbing) setScrubbing(true)
    } else if (scrubbing && ++s.still > 2) setScrubbing(false)
  }, 0.5)
  // The frame after each switch draws it, with the model's shape of that frame: a scroll that
  // stops at once (a jump, a key) leaves the right shadow, whichever way it came.
  useEffect(() => {
    if (shape) invalidate()
  }, [shape, scrubbing, invalidate])
  if (!afterFirstFrame || intensity <= 0 || !(footprint > 0)) return null
  return (
    <ContactShadows
      // A hair below the foot: its camera looks up from there, and must see the model's sole.
      position={[0, bottom - height * 0.002, 0]}
      // Room around the footprint for the blur to spread into.
      scale={footprint * (1.25 + softness * 0.75)}
      far={Math.max(height, footprint) * 0.8}
      opacity={intensity}
      blur={0.4 + softness * 2.6}
      resolution={tier === 'low' ? 256 : 512}
      // Once; each frame while the model moves (a new `frames` draws it again at once).
      frames={moving || scrubbing ? Infinity : 1}
    />
  )
})
