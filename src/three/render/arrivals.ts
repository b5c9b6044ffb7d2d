// What a scene waits for (its code, its model, its light) has arrived: the renderer re-renders its
// scenes at once, in a plain update, rather than leaving the suspended scene to React's retry.
// React holds a retry's reveal until 300 ms after the last suspense fallback it showed
// (FALLBACK_THROTTLE_MS in its reconciler, to spare a page a run of reveals), but this renderer
// reveals nothing by committing a scene: its views draw it once its shaders are compiled
// (renderer.tsx, `Ready`). Traced on slow 4G, the viewer's model parsed and lit, the worker sat
// idle 440 ms before its scene mounted. An update in another lane commits with no such wait.
// Written here because React offers no switch for it.

type Listener = () => void
const listeners = new Set<Listener>()

/** Calls `listener` each time something a scene waits for arrives; returns the unsubscribe. */
export function onArrival(listener: Listener): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/**
 * Says that something a scene waits for has arrived. Called where it resolves (the loader's
 * `onLoad`, the environment's promise), a task before React's retry would look again: the
 * listeners' update finds the suspense cache resolved by then.
 */
export function arrived(): void {
  for (const listener of listeners) listener()
}
