// A model's own animation: which clip plays, and when. The first clip loops, or the one the slice
// names; it plays only while the slot may move (on screen, tab shown, motion not reduced, a GPU to
// draw it: `useMayAnimate`), and not at all when the editor turned it off. Paused, the model holds
// the pose it had, so a visitor with reduced motion sees a still model, never a half-played one
// that jumps.
import { useEffect, useMemo } from 'react'
import { useFrame } from '@react-three/fiber'
import { AnimationMixer, type AnimationClip, type Object3D } from 'three'
import { useAnimationFrames } from '../scene-hooks'

/** The clip to play: the one named, else the first; null when the model has none. */
export function chooseClip(
  clips: readonly AnimationClip[],
  name: string | null,
  url: string,
): AnimationClip | null {
  if (!clips.length) return null
  if (!name) return clips[0]!
  const named = clips.find((clip) => clip.name === name)
  if (named) return named
  console.warn(
    `3D: ${url} has no animation named "${name}" (it has ${clips
      .map((clip) => `"${clip.name}"`)
      .join(', ')}); playing the first.`,
  )
  return clips[0]!
}

/**
 * Loops the chosen clip of `clips` on `root` while `active`, one mixer step per frame of the
 * demand loop (which it keeps running meanwhile). Returns whether the model has a clip to play.
 */
export function useModelAnimation(
  root: Object3D,
  clips: readonly AnimationClip[],
  options: { clip: string | null; play: boolean; active: boolean; url: string },
): boolean {
  const { clip: name, play, active, url } = options
  const chosen = useMemo(() => chooseClip(clips, name, url), [clips, name, url])
  const mixer = useMemo(
    () => (chosen && play ? new AnimationMixer(root) : null),
    [chosen, play, root],
  )
  useEffect(() => {
    if (!mixer || !chosen) return
    const action = mixer.clipAction(chosen).play()
    return () => {
      action.stop()
      mixer.uncacheRoot(root)
    }
  }, [mixer, chosen, root])
  const playing = !!mixer && active
  useAnimationFrames(playing)
  useFrame((_, delta) => {
    if (playing) mixer!.update(Math.min(delta, 0.1))
  })
  return !!mixer
}
