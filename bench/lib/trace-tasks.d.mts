/** Trace categories that give tasks, their starters and the V8 sampler's stacks. */
export const TASK_TRACE_CATEGORIES: string[]

/** Where each thread's time went between the page's `bench-trace-zero` and `bench-trace-end` marks. */
export function threadTimes(
  trace: unknown,
  options?: { minMs?: number; top?: number },
): {
  spanMs: number
  threads: { thread: string; busyMs: number; events: string[]; functions: string[] }[]
}
