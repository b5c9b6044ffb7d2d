import pLimit from 'p-limit'

/**
 * The bounded lane of model renders, like the image renders' lanes (../images/media.ts): one
 * render at a time per process (a render uses a core and up to a gigabyte of memory), four
 * waiting; past that a visitor's request is answered at once with 503 and `Retry-After`. Warming
 * (build, publish) queues behind visitors without a bound of its own: it awaits each render
 * before the next, so it never holds more than one place.
 */
export const MODEL_LANE = { concurrency: 1, waiting: 4 } as const

/** Seconds a refused render is told to wait: about one cold render of a large model. */
export const MODEL_RETRY_AFTER_SECONDS = 5

/** Thrown when the lane is full: answered 503 with `Retry-After`. */
export class ModelRenderRefused extends Error {
  constructor() {
    super('too many model renders waiting')
    this.name = 'ModelRenderRefused'
  }
}

export type ModelLane = {
  /** Runs `job` now or once a place frees; throws `ModelRenderRefused` when the lane is full. */
  run: <T>(job: () => Promise<T>) => Promise<T>
  /** Runs `job` in turn whatever the queue's length (warming, checks). */
  queue: <T>(job: () => Promise<T>) => Promise<T>
}

/** A lane with these bounds. */
export function createModelLane({
  concurrency,
  waiting,
}: { concurrency: number; waiting: number } = MODEL_LANE): ModelLane {
  const limit = pLimit(concurrency)
  return {
    run: (job) =>
      limit.activeCount + limit.pendingCount >= concurrency + waiting
        ? Promise.reject(new ModelRenderRefused())
        : limit(job),
    queue: (job) => limit(job),
  }
}

let shared: ModelLane | undefined

/** The process's lane: the media route and `/3d-models` share it. */
export function sharedModelLane(): ModelLane {
  return (shared ??= createModelLane())
}
