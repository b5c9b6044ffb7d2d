import path from 'node:path'
import * as prismic from '@prismicio/client'
import { afterAll, describe, expect, it } from 'vitest'
import { createContentApi, type ContentApi } from '@services/content-api/app'
import {
  ContentFetchError,
  resilientFetch,
  type FetchLike,
  type ResilientFetchOptions,
} from '@/lib/content/resilient-fetch'

/**
 * Content faults, against the real embedded content API (in-process) and, where the API cannot
 * produce the fault on demand, a fault-injecting fetch in front of it. The client is configured
 * as `src/prismicio.ts` configures it: its fetch wrapped by `resilientFetch`.
 */

const ENDPOINT = 'http://content.test/api/v2'
const FAST: ResilientFetchOptions = { timeoutMs: 200, retries: 2, baseDelayMs: 1, maxDelayMs: 50 }
const apis: ContentApi[] = []

function contentApi(
  options: { accessToken?: string; rateLimit?: number; retryAfter?: number } = {},
) {
  const api = createContentApi({
    contentDir: path.resolve('content'),
    modelsDir: process.cwd(),
    ...options,
  })
  apis.push(api)
  return api
}

const viaApi =
  (api: ContentApi): FetchLike =>
  (input, init) =>
    api.fetch(new Request(input, { headers: init?.headers, signal: init?.signal }))

function client(fetch: FetchLike, config: prismic.ClientConfig = {}) {
  return prismic.createClient('facet-local', {
    documentAPIEndpoint: ENDPOINT,
    fetch: resilientFetch(fetch, FAST),
    ...config,
  })
}

/** Counts calls through `fetch`, and to the search endpoint. */
function counting(fetch: FetchLike) {
  const calls = { all: 0, search: 0 }
  const wrapped: FetchLike = (input, init) => {
    calls.all++
    if (input.includes('/documents/search')) calls.search++
    return fetch(input, init)
  }
  return { fetch: wrapped, calls }
}

afterAll(() => apis.forEach((api) => api.close()))

describe('content faults', () => {
  it('answers a real document through the wrapper', async () => {
    const page = await client(viaApi(contentApi())).getByUID('page', 'about', { lang: '*' })
    expect(page.uid).toBe('about')
  })

  it('404: an unknown document is a NotFoundError (the page renders the not-found page)', async () => {
    await expect(
      client(viaApi(contentApi())).getByUID('page', 'no-such-page'),
    ).rejects.toBeInstanceOf(prismic.NotFoundError)
  })

  it('401: a missing or wrong access token names PRISMIC_ACCESS_TOKEN and leaks no token', async () => {
    const api = contentApi({ accessToken: 'right-token' })
    const error = await client(viaApi(api))
      .getByUID('page', 'about')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentFetchError)
    expect((error as Error).message).toMatch(/PRISMIC_ACCESS_TOKEN/)
    const wrong = await client(viaApi(api), { accessToken: 'wrong-token-value' })
      .getByUID('page', 'about')
      .catch((e: unknown) => e)
    expect((wrong as Error).message).toMatch(/PRISMIC_ACCESS_TOKEN/)
    expect((wrong as Error).message).not.toContain('wrong-token-value')
    const ok = await client(viaApi(api), { accessToken: 'right-token' }).getByUID('page', 'about')
    expect(ok.uid).toBe('about')
  })

  it('unknown ref: recovered through the master ref', async () => {
    const { fetch, calls } = counting(viaApi(contentApi()))
    const page = await client(fetch).getByUID('page', 'about', { ref: 'no-such-ref' })
    expect(page.uid).toBe('about')
    expect(calls.search).toBe(2)
  })

  it('410 (expired ref): recovered through the master ref', async () => {
    const api = contentApi()
    const master = api.store().ref
    let expired = false
    const fetch: FetchLike = async (input, init) => {
      if (input.includes('/documents/search') && !expired) {
        expired = true
        return Response.json(
          {
            type: 'api_validation_error',
            message: `The ref old has expired. Master ref is: ${master}`,
          },
          { status: 410 },
        )
      }
      return viaApi(api)(input, init)
    }
    const page = await client(fetch).getByUID('page', 'about')
    expect(expired).toBe(true)
    expect(page.uid).toBe('about')
  })

  it('400: a bad query is reported as a bug naming the query', async () => {
    const error = await client(viaApi(contentApi()))
      .get({ filters: ['[[not-a-filter(my.page.uid, "about"'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentFetchError)
    expect((error as Error).message).toMatch(/Bug: .*HTTP 400/)
    expect((error as Error).message).toContain('not-a-filter(my.page.uid, "about"')
  })

  it('429 from the real API: retried a bounded number of times, then a clear error', async () => {
    const api = contentApi({ rateLimit: 1, retryAfter: 0.02 })
    const { fetch, calls } = counting(viaApi(api))
    const c = client(fetch)
    const uids = ['about', 'contact', 'home', 'showcase']
    // Four queries at once against one request per second: the retries (20 ms apart, two of them)
    // cannot outlast the limit, so some queries fail, each with an error, and none loops.
    const outcomes = await Promise.allSettled(uids.map((uid) => c.getByUID('page', uid)))
    const failed = outcomes.filter((o) => o.status === 'rejected')
    expect(failed.length).toBeGreaterThan(0)
    for (const f of failed)
      expect(String(f.reason)).toMatch(/after 3 attempts \(HTTP 429 \(rate limited\)/)
    expect(calls.all).toBeLessThanOrEqual(3 * (uids.length + 1))
  })

  it('429 forever: the retry is capped (the client alone would loop) and the error names the document', async () => {
    const api = contentApi()
    const { fetch, calls } = counting(async (input, init) =>
      input.includes('/documents/search')
        ? new Response('{"message":"slow down"}', {
            status: 429,
            headers: { 'retry-after': '0', 'content-type': 'application/json' },
          })
        : viaApi(api)(input, init),
    )
    const error = await client(fetch)
      .getByUID('page', 'about')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentFetchError)
    expect((error as Error).message).toMatch(/after 3 attempts .*rate limited/)
    expect((error as Error).message).toContain('my.page.uid, "about"')
    expect(calls.search).toBe(3)
  })

  it('a 429 that clears is answered after one retry', async () => {
    const api = contentApi()
    let limited = false
    const { fetch, calls } = counting(async (input, init) => {
      if (input.includes('/documents/search') && !limited) {
        limited = true
        return new Response('{}', { status: 429, headers: { 'retry-after': '0.01' } })
      }
      return viaApi(api)(input, init)
    })
    expect((await client(fetch).getByUID('page', 'about')).uid).toBe('about')
    expect(calls.search).toBe(2)
  })

  it('a hung request times out, is retried a bounded number of times, and names the document', async () => {
    const api = contentApi()
    const { fetch, calls } = counting((input, init) =>
      input.includes('/documents/search')
        ? new Promise<Response>((_, reject) =>
            init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
          )
        : viaApi(api)(input, init),
    )
    const error = await client(fetch)
      .getByUID('page', 'contact')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentFetchError)
    expect((error as Error).message).toMatch(/no answer within 200 ms/)
    expect((error as Error).message).toContain('my.page.uid, "contact"')
    expect(calls.search).toBe(3)
  })

  it('a 5xx or network error is retried; one that persists fails naming the document', async () => {
    const api = contentApi()
    let failures = 0
    const flaky: FetchLike = async (input, init) => {
      if (input.includes('/documents/search') && failures++ < 2) {
        if (failures === 1) throw new TypeError('fetch failed')
        return new Response('upstream down', { status: 503 })
      }
      return viaApi(api)(input, init)
    }
    expect((await client(flaky).getByUID('page', 'about')).uid).toBe('about')

    const down: FetchLike = async (input, init) =>
      input.includes('/documents/search')
        ? new Response('upstream down', { status: 502 })
        : viaApi(api)(input, init)
    const error = await client(down)
      .getByUID('page', 'showcase')
      .catch((e: unknown) => e)
    expect((error as Error).message).toMatch(/HTTP 502/)
    expect((error as Error).message).toContain('my.page.uid, "showcase"')
  })

  it("the caller's own abort is not retried", async () => {
    const { fetch, calls } = counting(
      (_input, init) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    )
    const controller = new AbortController()
    const pending = resilientFetch(fetch, FAST)(`${ENDPOINT}`, { signal: controller.signal })
    controller.abort(new Error('caller gave up'))
    await expect(pending).rejects.toThrow('caller gave up')
    expect(calls.all).toBe(1)
  })
})
