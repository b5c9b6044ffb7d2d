// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startWorker, workerScripts } from '../../src/three/worker-scripts'

// The page asks for a Turbopack worker's scripts all at once, as the worker starts: its bootstrap
// would fetch them one after another.
const ORIGIN = 'https://site.example'
const params = (list: unknown) => encodeURIComponent(JSON.stringify([list, '', '/_next/']))

describe('workerScripts', () => {
  it("reads the bootstrap's list from its query or its hash, as the bootstrap does", () => {
    const list = ['/_next/static/chunks/a.js', '/_next/static/chunks/b.js']
    const expected = list.map((path) => `${ORIGIN}${path}`)
    expect(
      workerScripts(`/_next/static/chunks/turbopack-worker-x.js?params=${params(list)}`, ORIGIN),
    ).toEqual(expected)
    expect(
      workerScripts(`/_next/static/chunks/turbopack-worker-x.js#params=${params(list)}`, ORIGIN),
    ).toEqual(expected)
  })

  it('nothing for another worker URL, a list that is not one, or another origin', () => {
    expect(workerScripts('/worker.js', ORIGIN)).toEqual([])
    expect(workerScripts('/w.js?params=not-json', ORIGIN)).toEqual([])
    expect(workerScripts(`/w.js?params=${params('a.js')}`, ORIGIN)).toEqual([])
    expect(
      workerScripts(`/w.js?params=${params(['https://elsewhere.example/a.js'])}`, ORIGIN),
    ).toEqual([])
  })
})

describe('startWorker', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("fetches the scripts the constructor's URL names, one a task, and leaves the global Worker as it was", () => {
    vi.useFakeTimers()
    const made: unknown[] = []
    class FakeWorker {
      constructor(url: string | URL) {
        made.push(url)
      }
    }
    vi.stubGlobal('Worker', FakeWorker)
    const asked: string[] = []
    vi.stubGlobal('fetch', (input: string) => {
      asked.push(input)
      return Promise.resolve(new Response(''))
    })
    const url = `/_next/static/chunks/turbopack-worker-x.js?params=${params(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'])}`
    const worker = startWorker(() => new Worker(url))
    expect(worker).toBeInstanceOf(FakeWorker)
    expect(made).toEqual([url])
    // Not in the task that made the worker: each in a task of its own, in the URL's order.
    expect(asked).toEqual([])
    expect(vi.getTimerCount()).toBe(2)
    vi.runAllTimers()
    vi.useRealTimers()
    expect(asked).toEqual([
      `${location.origin}/_next/static/chunks/a.js`,
      `${location.origin}/_next/static/chunks/b.js`,
    ])
    expect(globalThis.Worker).toBe(FakeWorker)
  })
})
