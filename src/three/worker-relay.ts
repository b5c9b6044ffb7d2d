// Decoder workers that the render worker asks the page to start, on the engines where a worker
// starting a worker of its own can hang.
//
// Firefox (153 ESR, WebGL in a window) now and then hung the render worker for good inside
// `new Worker()` as Draco's loader made its decoder worker: the model stayed `loading`, the
// render worker drew no further frame, and nothing was reported (docs/3d-models.md, "Decoders").
// One decoder worker instead of two made it rarer, not gone. There, the render worker makes no
// worker itself: `RelayedWorker` stands in for `Worker` in its global scope (three's Draco and
// KTX2 loaders call `new Worker(url)`), asks the page to start the real one (`spawn`), and talks to
// it over a MessageChannel that the page joins to the worker. Each message crosses the page's
// thread once, moved (the loaders' buffers are transferred), not copied. Written here because no
// library proxies a nested worker through its parent.
import type { FromRenderer } from './protocol'

/** The page's word to a relayed worker's stand-in: a message, or an error, from the real one. */
type FromPage = { kind: 'message'; data: unknown } | { kind: 'error'; message: string }
/** The stand-in's word to the page: a message with what it transfers, or the end. */
type ToPage = { kind: 'message'; data: unknown; transfer: Transferable[] } | { kind: 'terminate' }

/** Whether this engine's workers should not start workers of their own (see the file's top). */
export function nestedWorkersHang(userAgent: string): boolean {
  return /\bFirefox\//.test(userAgent)
}

/**
 * A `Worker` whose real worker the page starts. It has what three's loaders use of a worker:
 * `postMessage` with a transfer list, `onmessage`, `addEventListener('message')`, `terminate`.
 */
export class RelayedWorker extends EventTarget {
  onmessage: ((this: RelayedWorker, event: MessageEvent) => void) | null = null
  onerror: ((this: RelayedWorker, event: Event) => void) | null = null
  readonly #port: MessagePort

  constructor(url: string | URL, options?: WorkerOptions) {
    super()
    const channel = new MessageChannel()
    this.#port = channel.port1
    this.#port.onmessage = (event: MessageEvent<FromPage>) => {
      const said = event.data
      if (said.kind === 'message') {
        const message = new MessageEvent('message', { data: said.data })
        this.onmessage?.call(this, message)
        this.dispatchEvent(message)
      } else {
        const error = new ErrorEvent('error', { message: said.message })
        this.onerror?.call(this, error)
        this.dispatchEvent(error)
      }
    }
    const spawn: FromRenderer = {
      type: 'spawn',
      url: new URL(url, self.location.href).href,
      options: options ?? {},
      port: channel.port2,
    }
    self.postMessage(spawn, { transfer: [channel.port2] })
  }

  postMessage(data: unknown, transfer: Transferable[] | StructuredSerializeOptions = []): void {
    const list = Array.isArray(transfer) ? transfer : (transfer.transfer ?? [])
    // The list travels beside the message so the page can hand the same objects on as transfers.
    this.#port.postMessage({ kind: 'message', data, transfer: list } satisfies ToPage, list)
  }

  terminate(): void {
    this.#port.postMessage({ kind: 'terminate' } satisfies ToPage)
    this.#port.close()
  }
}

/** The distinct ArrayBuffers in a message: its own, and its typed arrays'. */
export function buffersIn(data: unknown, found = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (depth > 8 || data === null || typeof data !== 'object') return [...found]
  if (data instanceof ArrayBuffer) found.add(data)
  else if (ArrayBuffer.isView(data)) {
    if (data.buffer instanceof ArrayBuffer) found.add(data.buffer)
  } else
    for (const value of Array.isArray(data) ? data : Object.values(data))
      buffersIn(value, found, depth + 1)
  return [...found]
}

/** In the render worker: its workers are started by the page, where they would hang. */
export function relayNestedWorkers(): void {
  if (nestedWorkersHang(navigator.userAgent))
    (globalThis as { Worker: unknown }).Worker = RelayedWorker
}

/**
 * On the page: starts the workers a render worker asks for (`spawn`) and joins each to its
 * stand-in. Returns a function that ends them all, for when the render worker ends.
 */
export function serveSpawns(renderWorker: Worker): () => void {
  const started = new Set<Worker>()
  renderWorker.addEventListener('message', (event: MessageEvent<FromRenderer>) => {
    const said = event.data
    if (said.type !== 'spawn') return
    const { port } = said
    let worker: Worker
    try {
      worker = new Worker(said.url, said.options)
    } catch (error) {
      port.postMessage({ kind: 'error', message: String(error) } satisfies FromPage)
      return
    }
    started.add(worker)
    // The worker's answers moved on, as it moved them here (a decoded mesh's arrays).
    worker.onmessage = (message) =>
      port.postMessage({ kind: 'message', data: message.data } satisfies FromPage, {
        transfer: buffersIn(message.data),
      })
    worker.onerror = (error) => {
      error.preventDefault()
      port.postMessage({ kind: 'error', message: error.message } satisfies FromPage)
    }
    port.onmessage = (message: MessageEvent<ToPage>) => {
      const asked = message.data
      if (asked.kind === 'message') worker.postMessage(asked.data, asked.transfer)
      else {
        worker.terminate()
        started.delete(worker)
        port.close()
      }
    }
  })
  return () => {
    for (const worker of started) worker.terminate()
    started.clear()
  }
}
