// The page's long tasks in a Chromium trace, named: for each main-thread task over a threshold in
// a window of time, what started it (an event, a timer or scheduler callback, a script's
// evaluation, a frame), and where its time went: the functions the V8 sampling profiler saw most
// (name, chunk, line and column, and a few characters of the chunk there, since production
// chunks are minified), garbage collection, and calls that wait on the GPU process.

/** Trace categories that give the above (the sampler adds stacks to the timeline's slices). */
export const TASK_TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'input',
  'latencyInfo',
  'gpu',
]

const ms = (us) => Math.round(us / 100) / 10

/** The sampling profiler's samples on one thread: [{ ts, frames: [callFrame…] (leaf first) }]. */
function samplesOf(events, thread) {
  const [pid, tid] = thread.split(':').map(Number)
  // Each profile's clock: its samples' time deltas run on from the Profile event's startTime.
  const clocks = new Map(
    events
      .filter((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid)
      .map((e) => [e.id, e.args?.data?.startTime ?? e.ts]),
  )
  const nodes = new Map()
  const samples = []
  const chunks = events
    .filter((e) => e.name === 'ProfileChunk' && e.pid === pid && clocks.has(e.id))
    .sort((a, b) => a.ts - b.ts)
  for (const e of chunks) {
    const data = e.args?.data ?? {}
    for (const node of data.cpuProfile?.nodes ?? []) nodes.set(`${e.id}:${node.id}`, node)
    const deltas = data.timeDeltas ?? []
    let ts = clocks.get(e.id)
    ;(data.cpuProfile?.samples ?? []).forEach((id, i) => {
      ts += deltas[i] ?? 0
      samples.push({ node: `${e.id}:${id}`, ts })
    })
    clocks.set(e.id, ts)
  }
  // Chunks may come out of order; sort by time, then resolve each node's stack.
  samples.sort((a, b) => a.ts - b.ts)
  const parents = new Map()
  for (const [key, node] of nodes)
    for (const child of node.children ?? []) parents.set(`${key.split(':')[0]}:${child}`, key)
  for (const [key, node] of nodes)
    if (node.parent) parents.set(key, `${key.split(':')[0]}:${node.parent}`)
  return samples.map((s) => {
    const frames = []
    for (let key = s.node; key; key = parents.get(key)) {
      const frame = nodes.get(key)?.callFrame
      if (frame) frames.push(frame)
    }
    return { ts: s.ts, frames }
  })
}

/** `url`'s last path segment (the chunk's file name). */
const chunkName = (url) => (url ? url.split('/').pop().split('?')[0] : '')

/**
 * The main thread's tasks over `thresholdMs` from `from` (µs, trace clock) for `spanMs`, each
 * with what started it and where its time went. `sources` maps a chunk URL to its text (to quote
 * the minified code at a sampled position), optional.
 */
export function namedLongTasks(
  trace,
  { from, spanMs = 3000, thresholdMs = 50, sources = new Map() },
) {
  const events = trace.traceEvents ?? trace
  const zero = events.find((e) => e.name === 'bench-trace-zero')
  // The page's main thread: the one that made the zero mark.
  const thread = `${zero.pid}:${zero.tid}`
  const on = events.filter((e) => `${e.pid}:${e.tid}` === thread && e.ph === 'X' && e.dur)
  const to = from + spanMs * 1000
  const tasks = on.filter(
    (e) =>
      e.name === 'ThreadControllerImpl::RunTask' &&
      e.ts >= from &&
      e.ts < to &&
      e.dur >= thresholdMs * 1000,
  )
  const samples = samplesOf(events, thread)
  const quote = (frame) => {
    const text = sources.get(frame.url)
    if (!text) return ''
    const lines = text.split('\n')
    const line = lines[frame.lineNumber] ?? ''
    return line.slice(Math.max(0, frame.columnNumber - 10), frame.columnNumber + 50)
  }
  return tasks.map((task) => {
    const inside = on.filter(
      (e) => e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e !== task,
    )
    const starter = inside.find((e) =>
      [
        'FunctionCall',
        'EvaluateScript',
        'v8.evaluateModule',
        'EventDispatch',
        'TimerFire',
        'FireAnimationFrame',
        'ProxyMain::BeginMainFrame',
        'ParseHTML',
        'RunMicrotasks',
        'v8.run',
      ].includes(e.name),
    )
    const data = starter?.args?.data ?? {}
    const startedBy = starter
      ? `${starter.name}${data.type ? ` ${data.type}` : ''}${data.functionName ? ` ${data.functionName}()` : ''}${data.url ? ` in ${chunkName(data.url)}` : ''}`
      : 'unknown'
    // Self time by function (leaf frame), from the samples within the task.
    const self = new Map()
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts <= task.ts + task.dur)
    const interval = inTask.length > 1 ? (inTask.at(-1).ts - inTask[0].ts) / (inTask.length - 1) : 0
    for (const sample of inTask) {
      // The first frame with a URL (our code, or a library's) carries the name; natives
      // (`(program)`, `(garbage collector)`, getContext…) name themselves.
      const leaf = sample.frames[0]
      const owner = sample.frames.find((f) => f.url) ?? leaf
      if (!leaf) continue
      const key = `${leaf.functionName || '(anonymous)'}${leaf.url ? '' : owner?.url ? ` ← ${owner.functionName || '(anonymous)'} ${chunkName(owner.url)}:${owner.lineNumber + 1}:${owner.columnNumber + 1} \`${quote(owner)}\`` : ''}${leaf.url ? ` ${chunkName(leaf.url)}:${leaf.lineNumber + 1}:${leaf.columnNumber + 1} \`${quote(leaf)}\`` : ''}`
      self.set(key, (self.get(key) ?? 0) + interval)
    }
    const gc = inside.filter((e) => e.name === 'MinorGC' || e.name === 'MajorGC')
    const gpu = inside.filter((e) =>
      [
        'GpuChannelHost::CreateViewCommandBuffer',
        'CommandBufferHelper::Finish',
        'ImplementationBase::GetBucketContents',
      ].includes(e.name),
    )
    return {
      atMs: ms(task.ts - zero.ts),
      durationMs: ms(task.dur),
      startedBy,
      gcMs: ms(
        gc
          .filter((e) => e.name === 'MinorGC' || e.name === 'MajorGC')
          .reduce((a, e) => a + e.dur, 0),
      ),
      waitingOnGpuMs: ms(gpu.reduce((a, e) => a + e.dur, 0)),
      topFunctions: [...self.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([name, us]) => `${ms(us)} ms ${name}`),
    }
  })
}

/**
 * Where every thread's time went between the page's `bench-trace-zero` mark and its
 * `bench-trace-end` mark: for each thread busy over `minMs` in that span (the page's main thread,
 * its workers, the GPU process, the compositor…), its busy time (top-level tasks) and the trace
 * events and sampled functions that took the most of it. For work that leaves the main thread,
 * where `namedLongTasks` sees nothing.
 */
export function threadTimes(trace, { minMs = 50, top = 8 } = {}) {
  const events = trace.traceEvents ?? trace
  const zero = events.find((e) => e.name === 'bench-trace-zero')
  const end = events.find((e) => e.name === 'bench-trace-end')
  const from = zero.ts
  const to = end?.ts ?? Math.max(...events.map((e) => e.ts ?? 0))
  const names = new Map()
  for (const e of events)
    if (e.ph === 'M' && (e.name === 'thread_name' || e.name === 'process_name'))
      names.set(e.name === 'thread_name' ? `${e.pid}:${e.tid}` : `${e.pid}`, e.args?.name ?? '')
  const byThread = new Map()
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || e.ts + e.dur < from || e.ts > to) continue
    const key = `${e.pid}:${e.tid}`
    if (!byThread.has(key)) byThread.set(key, [])
    byThread.get(key).push(e)
  }
  const clip = (e) => Math.max(0, Math.min(e.ts + e.dur, to) - Math.max(e.ts, from))
  const rows = []
  for (const [key, list] of byThread) {
    // Busy: the union of the thread's outermost slices.
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur)
    let busy = 0
    let reach = -Infinity
    for (const e of list) {
      const start = Math.max(e.ts, from, reach)
      const stop = Math.min(e.ts + e.dur, to)
      if (stop > start) busy += stop - start
      reach = Math.max(reach, e.ts + e.dur)
    }
    if (busy < minMs * 1000) continue
    const total = new Map()
    for (const e of list) {
      if (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'ThreadPool_RunTask') continue
      total.set(e.name, (total.get(e.name) ?? 0) + clip(e))
    }
    const samples = samplesOf(events, key).filter((s) => s.ts >= from && s.ts <= to)
    const interval =
      samples.length > 1 ? (samples.at(-1).ts - samples[0].ts) / (samples.length - 1) : 0
    const self = new Map()
    for (const s of samples) {
      const leaf = s.frames[0]
      if (!leaf) continue
      const owner = s.frames.find((f) => f.url) ?? leaf
      const name = `${leaf.functionName || '(anonymous)'}${owner.url ? ` ${chunkName(owner.url)}:${owner.lineNumber + 1}:${owner.columnNumber + 1}` : ''}`
      self.set(name, (self.get(name) ?? 0) + interval)
    }
    const [pid] = key.split(':')
    rows.push({
      thread: `${names.get(pid) ?? pid} / ${names.get(key) ?? key}`,
      busyMs: ms(busy),
      events: [...total.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, us]) => `${ms(us)} ms ${name}`),
      functions: [...self.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, us]) => `${ms(us)} ms ${name}`),
    })
  }
  return { spanMs: ms(to - from), threads: rows.sort((a, b) => b.busyMs - a.busyMs) }
}
