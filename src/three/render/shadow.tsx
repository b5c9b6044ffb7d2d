// The soft shadow on the ground under a model (look.ts, `shadow`): drei's ContactShadows, which
// draws the model as seen from below into a small texture, blurs it, and lays it on a plane at the
// model's foot, so it follows the model's true footprint, whatever its shape. It is drawn once,
// and again only while the model itself moves (`moving`: a clip playing): a frame drawn for a turn
// of the camera, a press or a scroll costs it nothing. Inside the hero's turntable it turns with
// the model, so a turning model needs no new picture either.
import { memo, useEffect } from 'react'
import { useThree } from '@react-three/fiber'
import { ContactShadows } from '@react-three/drei/core/ContactShadows'
import { useHost } from './host-context'

/**
 * `footprint`: the model's widest side on the ground (metres); `height`: how tall it is, over which
 * the shadow fades; `bottom`: its foot's height. `intensity` and `softness`, 0 to 1, the slice's.
 */
export const GroundShadow = memo(function GroundShadow({
  footprint,
  height,
  bottom,
  intensity,
  softness,
  moving,
}: {
  footprint: number
  height: number
  bottom: number
  intensity: number
  softness: number
  moving: boolean
}) {
  const { tier } = useHost()
  const invalidate = useThree((s) => s.invalidate)
  // A new shadow (new content in a preview) is drawn at once, as the demand loop idles.
  useEffect(invalidate, [invalidate, footprint, height, bottom, intensity, softness])
  if (intensity <= 0 || !(footprint > 0)) return null
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
      frames={moving ? Infinity : 1}
    />
  )
})
