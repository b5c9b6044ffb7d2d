/* eslint-disable react-hooks/immutability -- three.js objects (scene) are mutable by design. */

// A model scene's environment (look.ts): made once per renderer for each preset or file, and
// shared by every slot that asks for it. A file is fetched from the site's origin at the size the
// renderer's tier needs (`environmentUrlFor`), beside the model, not before it: the renderer asks
// for it with the model as the slot arrives (renderer.tsx, `slots`), and the warm-up fetches no
// environment, so a visitor who never scrolls pays nothing for it. A file that cannot
// be fetched or read lights the model with the neutral preset, and the page's console says why.
import { useLayoutEffect, useMemo } from 'react'
import { useThree } from '@react-three/fiber'
import type { WebGLRenderer } from 'three'
import type { SceneEnvironment, SceneLook } from '@rules/look'
import { environmentUrlFor } from '../model-variant'
import type { SceneSlot } from '../protocol'
import {
  environmentKey,
  fileEnvironment,
  presetEnvironment,
  type LitEnvironment,
} from './environment'
import { useHost } from './host-context'
import { environmentsMade as made, type Tracked } from './environment-cache'
import { arrived } from './arrivals'

function environmentOf(
  gl: WebGLRenderer,
  environment: SceneEnvironment,
  url: string | null,
  tier: 'high' | 'low',
  warn: (message: string) => void,
): Tracked<LitEnvironment> {
  const key = url ? `file:${url}` : environmentKey(environment)
  let byKey = made.get(gl)
  if (!byKey) made.set(gl, (byKey = new Map()))
  let promise = byKey.get(key)
  if (!promise) {
    const start: Promise<LitEnvironment> =
      environment.kind === 'preset' || !url
        ? Promise.resolve().then(() =>
            presetEnvironment(
              gl,
              environment.kind === 'preset' ? environment.preset : 'neutral',
              tier,
            ),
          )
        : fileEnvironment(gl, url, environment.hdr, tier).catch((error: unknown) => {
            warn(
              `the environment ${url} cannot be used (${error instanceof Error ? error.message : error}): the model is lit by the neutral preset`,
            )
            byKey.delete(key)
            return environmentOf(gl, { kind: 'preset', preset: 'neutral' }, null, tier, warn)
          })
    const tracked: Tracked<LitEnvironment> = start.then((lit) => {
      Object.assign(tracked, { status: 'fulfilled' as const, value: lit })
      setTimeout(arrived)
      return lit
    })
    promise = tracked
    byKey.set(key, promise)
  }
  return promise
}

/**
 * Starts (or finds) the environment `look` asks for, for this slot, and returns its promise for
 * the model to `use` once loaded: called by the scene before the model suspends, so that the
 * file and the model are fetched side by side.
 */
export function useLookEnvironment(slot: SceneSlot, look: SceneLook): Promise<LitEnvironment> {
  const gl = useThree((s) => s.gl)
  const { tier, model, report } = useHost()
  const { environment, skybox } = look
  const url =
    environment.kind === 'file'
      ? environmentUrlFor(environment.url, tier, skybox, model.base)
      : null
  const key = url ?? environmentKey(environment)
  return useMemo(
    () =>
      environmentOf(gl, environment, url, tier, (message) =>
        report({ type: 'warning', id: slot.id, message }),
      ),
    // `environment` is read through `key`: the same environment, the same promise.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
    [gl, key, tier, report, slot.id],
  )
}

/**
 * Puts the environment on the slot's scene: its light (a prefiltered map on the high tier; on the
 * low tier a light probe of its harmonics and a key light from its brightest part), and its
 * picture behind the model.
 */
export function LookEnvironment({ lit, skybox }: { lit: LitEnvironment; skybox: boolean }) {
  const scene = useThree((s) => s.scene)
  const invalidate = useThree((s) => s.invalidate)
  useLayoutEffect(() => {
    scene.environment = lit.lighting
    scene.background = skybox ? lit.background : null
    // A new light (new content in a preview) is drawn at once, as the demand loop idles.
    invalidate()
    return () => {
      scene.environment = null
      scene.background = null
    }
  }, [scene, lit, skybox, invalidate])
  const low = lit.irradiance
  if (!low) return null
  return (
    <>
      <lightProbe sh={low.sh} />
      <directionalLight
        position={low.key.direction.clone().multiplyScalar(10)}
        color={low.key.color}
        intensity={low.key.intensity}
      />
    </>
  )
}
