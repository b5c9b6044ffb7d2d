import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { setPriority } from 'node:os'
import path from 'node:path'
import type { ModelStats } from './inspect'
import { ModelRefused } from './limits'
import type { ModelParams } from './params'

/** A variant made: its GLB, its stats and the source's. */
export type Rendered = { glb: Uint8Array; stats: ModelStats; source: ModelStats }

/**
 * The child's entry. Found from the working directory, as the content folder is, because the
 * site's server code is bundled and knows no path of its own; run with tsx, as the content API's
 * CLI is.
 */
const WORKER = path.resolve('services/content-api/models/worker.ts')

/**
 * The child's niceness: its renders yield the cores to the server's own threads (pages, image
 * renders), which is what keeps a project page's images answering while a cold variant renders.
 */
const NICENESS = 10

/** A render that takes longer than this is ended: a model within the limits takes seconds. */
export const RENDER_TIMEOUT_MS = 120_000

/**
 * Makes a variant in a child process (./worker.ts) and resolves with it; rejects with
 * `ModelRefused` for a model over a limit or one that does not read. Each render is a process of
 * its own: its memory (a 100 MB model decodes to a gigabyte) goes back when it ends.
 */
export function renderModel(bytes: Uint8Array, params: ModelParams): Promise<Rendered> {
  if (!existsSync(WORKER))
    return Promise.reject(new Error(`the model worker is missing: ${WORKER}`))
  return new Promise((resolve, reject) => {
    // turbopackIgnore: the server's bundler would otherwise try to bundle the child's entry.
    const child = fork(/* turbopackIgnore: true */ WORKER, [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    try {
      if (child.pid) setPriority(child.pid, NICENESS)
    } catch {
      // Not permitted here (some containers): the render runs at the server's priority.
    }
    let answered = false
    const timer = setTimeout(() => child.kill('SIGKILL'), RENDER_TIMEOUT_MS)
    child.once('message', (answer: ChildAnswer) => {
      answered = true
      if (answer.ok)
        resolve({ glb: new Uint8Array(answer.glb), stats: answer.stats, source: answer.source })
      else reject(new ModelRefused(answer.status, answer.message))
    })
    child.once('error', reject)
    // 'close', not 'exit': the IPC channel is drained by then, so an answer is never missed.
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      if (!answered)
        reject(new Error(`the model render ended without an answer (${signal ?? `exit ${code}`})`))
    })
    child.send({ bytes, params })
  })
}

type ChildAnswer =
  | { ok: true; glb: Uint8Array; stats: ModelStats; source: ModelStats }
  | { ok: false; status: ModelRefused['status']; message: string }
