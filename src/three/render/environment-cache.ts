// The environments made on each renderer (look-environment.tsx, room-environment.ts), in a module
// of their own, without three's RoomEnvironment or any loader: the renderer forgets them when its
// context is lost, and its first chunk holds only this.
import type { Texture, WebGLRenderer } from 'three'
import type { LitEnvironment } from './environment'

/** A promise React's `use` reads at once once settled (its `status` and `value`). */
export type Tracked<T> = Promise<T> & { status?: 'fulfilled'; value?: T }

/**
 * The environments made on each renderer, by preset or file (look-environment.tsx).
 */
export const environmentsMade = new WeakMap<WebGLRenderer, Map<string, Tracked<LitEnvironment>>>()

/** The procedural scenes' environment on each renderer, made by the first scene that needs it. */
export const roomMade = new WeakMap<WebGLRenderer, Texture>()

/** Forgets every environment made on `gl` (its context was lost: the textures went with it). */
export function forgetEnvironments(gl: WebGLRenderer) {
  environmentsMade.delete(gl)
  roomMade.delete(gl)
}
