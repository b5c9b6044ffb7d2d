import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  buffersIn,
  nestedWorkersHang,
  RelayedWorker,
  serveSpawns,
} from '../../src/three/worker-relay'

// Where a worker's own workers hang it (Firefox), the render worker's decoder workers are
// started by the page and joined to a stand-in over a MessageChannel (src/three/worker-relay.ts).

describe('nestedWorkersHang', () => {
  it('is Firefox alone', () => {
    expect(
      nestedWorkersHang('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'),
    ).toBe(true)
    expect(
      nestedWorkersHang(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36',
      ),
    ).toBe(false)
    expect(
      nestedWorkersHang(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
      ),
    ).toBe(false)
  })
})

describe('buffersIn', () => {
  it('finds each buffer once: its own, and its typed arrays’, however deep', () => {
    const index = new Uint32Array(3)
    const position = new Float32Array(9)
    const shared = new ArrayBuffer(8)
    const found = buffersIn({
      type: 'decode',
      geometry: {
        index: { array: index },
        attributes: [{ array: position }, { array: new Uint8Array(shared) }],
      },
      raw: shared,
      name: 'mesh',
    })
    expect(found).toHaveLength(3)
    expect(found).toEqual(expect.arrayContaining([index.buffer, position.buffer, shared]))
    expect(buffersIn('text')).toEqual([])
  })
})

/** A decoder worker the page starts: it answers each message with its bytes' length, moved. */
class EchoWorker {
  static started: EchoWorker[] = []
  onmessage: ((event: { data: unknown }) => void) | null = null
  onerror: ((event: unknown) => void) | null = null
  terminated = false
  constructor(
    readonly url: string,
    readonly options?: WorkerOptions,
  ) {
    EchoWorker.started.push(this)
  }
  postMessage(data: { bytes: ArrayBuffer }, transfer: Transferable[]) {
    expect(transfer).toContain(data.bytes)
    const answer = new Float32Array([data.bytes.byteLength])
    setTimeout(() => this.onmessage?.({ data: { answer } }))
  }
  terminate() {
    this.terminated = true
  }
}

describe('a relayed worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    EchoWorker.started = []
  })

  it('is started by the page, moves what it is sent, hears the answers, and ends with the renderer', async () => {
    // The render worker, as the page sees it; the stand-in's `self.postMessage` arrives there.
    const renderWorker = new EventTarget() as unknown as Worker
    vi.stubGlobal('self', {
      location: { href: 'https://site.example/_next/static/chunks/render.js' },
      postMessage: (data: unknown) =>
        renderWorker.dispatchEvent(new MessageEvent('message', { data })),
    })
    vi.stubGlobal('Worker', EchoWorker)
    const end = serveSpawns(renderWorker)

    const relayed = new RelayedWorker('/3d-decoders/r180/decoder.js')
    expect(EchoWorker.started.map((worker) => worker.url)).toEqual([
      'https://site.example/3d-decoders/r180/decoder.js',
    ])
    const heard: unknown[] = []
    relayed.addEventListener('message', (event) => heard.push((event as MessageEvent).data))
    const answer = new Promise<unknown>((resolve) => {
      relayed.onmessage = (event) => resolve(event.data)
    })
    const bytes = new ArrayBuffer(64)
    relayed.postMessage({ bytes }, [bytes])
    expect(bytes.byteLength, 'moved, not copied').toBe(0)
    const said = (await answer) as { answer: Float32Array }
    expect([...said.answer]).toEqual([64])
    expect(heard).toHaveLength(1)

    end()
    expect(EchoWorker.started[0]!.terminated).toBe(true)
    relayed.terminate()
  })
})
