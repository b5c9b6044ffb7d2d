import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ConfigError, loadConfig } from '@/lib/config'
import { assetScope, hostedModelUrl, isAssetUrl, repositoryOf } from '@/lib/content/asset-hosts'
import { createModelProxy } from '@/lib/content/model-proxy'
import { GET } from '@/app/3d-models/route'
import { inspectModel } from '@services/content-api/models'
import { serveContentApi, type Served } from '../conformance/helpers'
import { localFiles } from '../support/zip'
import { serveFetch } from './support/serve-fetch'
import sharp from 'sharp'
import { readHdrHeader } from '@services/content-api/environments/hdr'

// `/3d-models`, the site's route to models on Prismic's asset CDN, over real sockets. The
// standalone content API stands in for Prismic's CDN, allowed through the extra hosts that
// `PRISMIC_ASSET_HOSTS` gives; a second server on an allowed host redirects. The site's
// repository is `my-studio`: another repository's files on Prismic's hosts are refused.

/** An image that is neither a model nor an environment (an SVG). */
const IMAGE = readdirSync('content/media/images').find((f) => /\.svg$/.test(f))!
const PHOTO = readdirSync('content/media/photos').find((f) => /\.jpe?g$/.test(f))!
let upstream: Served
let redirector: Awaited<ReturnType<typeof serveFetch>>
let proxy: Awaited<ReturnType<typeof serveFetch>>
let cacheDir: string

const ask = (src: string, query = '') =>
  fetch(`${proxy.origin}/3d-models?src=${encodeURIComponent(src)}${query}`)

beforeAll(async () => {
  upstream = await serveContentApi({ contentDir: 'content' })
  const upstreamPort = new URL(upstream.origin).port
  redirector = await serveFetch((request) => {
    const { pathname } = new URL(request.url)
    // A file named as an environment that is not one.
    if (pathname.endsWith('.hdr')) return new Response('<html>not an environment</html>')
    // Off the list: the same server under another name (localhost is not an allowed host).
    const target =
      pathname === '/off'
        ? `http://localhost:${upstreamPort}/media/models/vessel.glb`
        : `${upstream.origin}/media/models/vessel.glb`
    return new Response(null, { status: 302, headers: { location: target } })
  })
  cacheDir = mkdtempSync(path.join(os.tmpdir(), 'facet-proxy-'))
  const handler = createModelProxy({
    scope: {
      repository: 'my-studio',
      extra: [new URL(upstream.origin).host, new URL(redirector.origin).host],
    },
    variants: { cache: { dir: cacheDir, maxBytes: 2 ** 30 } },
  })
  proxy = await serveFetch(handler.handle)
}, 60_000)

afterAll(async () => {
  await Promise.all([proxy?.close(), redirector?.close(), upstream?.close()])
  rmSync(cacheDir, { recursive: true, force: true })
})

describe('/3d-models', () => {
  it('serves a model from an allowed host as it is, and optimized with tier', async () => {
    const src = `${upstream.origin}/media/models/vessel.glb`
    const original = await ask(src)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-type')).toBe('model/gltf-binary')
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(
      new Uint8Array(readFileSync('content/media/models/vessel.glb')),
    )
    const low = await ask(src, '&tier=low')
    expect(low.status).toBe(200)
    expect(low.headers.get('content-type')).toBe('model/gltf-binary')
    expect(low.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const stats = await inspectModel(new Uint8Array(await low.arrayBuffer()))
    expect(stats.triangles).toBeGreaterThan(0)
  }, 60_000)

  it("serves the AR files of a repository's model: the ar tier's GLB and its USDZ, and refuses another repository's", async () => {
    const src = `${upstream.origin}/media/models/vessel.glb`
    const usdz = await ask(src, '&format=usdz&placement=wall')
    expect(usdz.status).toBe(200)
    expect(usdz.headers.get('content-type')).toBe('model/vnd.usdz+zip')
    expect(usdz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const files = localFiles(new Uint8Array(await usdz.arrayBuffer()))
    expect(files[0]!.name).toBe('model.usda')
    const ar = await ask(src, '&tier=ar')
    expect(ar.headers.get('content-type')).toBe('model/gltf-binary')
    expect((await inspectModel(new Uint8Array(await ar.arrayBuffer()))).triangles).toBeGreaterThan(
      0,
    )
    const other = await ask(
      'https://other-studio.cdn.prismic.io/other-studio/chair.glb',
      '&format=usdz',
    )
    expect(other.status).toBe(403)
  }, 60_000)

  it('returns 400 for an unknown tier and for a missing src', async () => {
    const bad = await ask(`${upstream.origin}/media/models/vessel.glb`, '&tier=ultra')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toMatch(/tier "ultra"/)
    const missing = await fetch(`${proxy.origin}/3d-models?tier=low`)
    expect(missing.status).toBe(400)
    expect(await missing.text()).toMatch(/missing src/)
  })

  it('refuses a host that is not a Prismic asset host, fetching nothing', async () => {
    for (const src of [
      'https://example.com/model.glb',
      'http://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
      `http://localhost:${new URL(upstream.origin).port}/media/models/vessel.glb`,
    ]) {
      const response = await ask(src, '&tier=low')
      expect(response.status, src).toBe(403)
      expect(await response.text()).toMatch(/not a file of the site's Prismic repository/)
    }
  })

  it("refuses another repository's files on Prismic's hosts, fetching nothing", async () => {
    // Each would be fetched from Prismic if allowed: a 502 here, with no network, not a 403.
    for (const src of [
      'https://other.cdn.prismic.io/other/model.glb',
      'https://my-studio.cdn.prismic.io/other/model.glb',
      'https://other.cdn.prismic.io/my-studio/model.glb',
      'https://images.prismic.io/other/model.glb',
      'https://prismic-io.s3.amazonaws.com/other/model.glb',
      'https://my-studio.cdn.prismic.io/my-studio/../other/model.glb',
      'https://images.prismic.io/my-studio-2/model.glb',
    ]) {
      const response = await ask(src, '&tier=low')
      expect(response.status, src).toBe(403)
      const message = await response.text()
      expect(message).toMatch(/not a file of the site's Prismic repository/)
      // The refusal says what is allowed.
      expect(message).toContain('https://my-studio.cdn.prismic.io/my-studio/…')
    }
  })

  it('follows a redirect to an allowed host, and refuses one off the list', async () => {
    expect((await ask(`${redirector.origin}/on`)).status).toBe(200)
    const off = await ask(`${redirector.origin}/off`, '&tier=low')
    expect(off.status).toBe(403)
    expect(await off.text()).toMatch(
      /redirected to http:\/\/localhost:\d+\/media\/models\/vessel\.glb, which is not a file of the site's Prismic repository/,
    )
  })

  it('refuses an answer that is not glTF', async () => {
    const response = await ask(`${upstream.origin}/media/images/${IMAGE}`)
    expect(response.status).toBe(422)
    expect(await response.text()).toMatch(/not a glTF model/)
  })

  it("serves an environment (rules/look.ts) as it is, and at each tier's size: an HDR, a JPEG", async () => {
    const hdr = `${upstream.origin}/media/environments/studio.hdr`
    const original = await ask(hdr)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-type')).toBe('image/vnd.radiance')
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(
      new Uint8Array(readFileSync('content/media/environments/studio.hdr')),
    )
    for (const [query, width] of [
      ['&tier=low', 256],
      ['&tier=low&sky=1', 1024],
      ['&tier=high', 1024],
    ] as const) {
      const sized = await ask(hdr, query)
      expect(sized.status).toBe(200)
      expect(sized.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const header = readHdrHeader(new Uint8Array(await sized.arrayBuffer()))
      expect([header.width, header.height], query).toEqual([width, width / 2])
    }
    // An 8-bit image taken as an environment keeps its format, at the tier's width.
    const photo = await ask(`${upstream.origin}/media/photos/${PHOTO}`, '&tier=low')
    expect(photo.headers.get('content-type')).toBe('image/jpeg')
    expect((await sharp(Buffer.from(await photo.arrayBuffer())).metadata()).width).toBe(256)
  })

  it('refuses a file named as an environment that is not one', async () => {
    const response = await ask(`${redirector.origin}/studio.hdr`, '&tier=low')
    expect(response.status).toBe(422)
    expect(await response.text()).toMatch(/not an environment: a Radiance HDR, JPEG, PNG or AVIF/)
  })

  it('answers 502 naming the host when the model is missing there', async () => {
    const response = await ask(`${upstream.origin}/media/models/missing.glb`, '&tier=low')
    expect(response.status).toBe(502)
    expect(await response.text()).toMatch(/answered 404/)
  })
})

describe('/3d-models when a render crashes', () => {
  it('answers the original bytes, kept by no browser or CDN, and renders again next time', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-proxy-crash-'))
    let renders = 0
    const crashing = await serveFetch(
      createModelProxy({
        scope: { extra: [new URL(upstream.origin).host] },
        variants: {
          cache: { dir, maxBytes: 2 ** 30 },
          render: async () => {
            renders += 1
            throw new Error('the model render ended without an answer (SIGKILL)')
          },
        },
      }).handle,
    )
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const src = `${upstream.origin}/media/models/vessel.glb`
      const url = `${crashing.origin}/3d-models?src=${encodeURIComponent(src)}&tier=low`
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('model/gltf-binary')
      // Not the route's immutable caching: the stand-in must not outlive the failure.
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('x-model-variant')).toBe(
        'original (the variant could not be made)',
      )
      const original = new Uint8Array(readFileSync('content/media/models/vessel.glb'))
      expect(response.headers.get('x-file-size')).toBe(String(original.byteLength))
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(original)
      expect(errors).toHaveBeenCalledWith(expect.stringContaining(src))
      expect((await fetch(url)).status).toBe(200)
      expect(renders).toBe(2)
    } finally {
      errors.mockRestore()
      await crashing.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the route module', () => {
  it("answers with the site's proxy: another host is refused before any fetch", async () => {
    const response = await GET(
      new Request(
        `http://site.test/3d-models?src=${encodeURIComponent('https://example.com/a.glb')}&tier=low`,
      ),
    )
    expect(response.status).toBe(403)
    expect(await response.text()).toMatch(
      /example\.com\/a\.glb, which is not a file of the site's Prismic repository/,
    )
  })
})

describe('model URLs in hosted mode', () => {
  const site = { repository: 'my-studio' }

  it("rewrites the repository's model URLs into /3d-models, and nothing else", () => {
    const prismic = 'https://my-studio.cdn.prismic.io/my-studio/abc_vessel.glb'
    expect(hostedModelUrl(prismic, site)).toBe(`/3d-models?src=${encodeURIComponent(prismic)}`)
    const s3 = 'https://prismic-io.s3.amazonaws.com/my-studio/abc_vessel.glb'
    expect(hostedModelUrl(s3, site)).toBe(`/3d-models?src=${encodeURIComponent(s3)}`)
    expect(hostedModelUrl('https://example.com/a.glb', site)).toBe('https://example.com/a.glb')
    expect(hostedModelUrl('http://my-studio.cdn.prismic.io/my-studio/a.glb', site)).toBe(
      'http://my-studio.cdn.prismic.io/my-studio/a.glb',
    )
    // Another repository's file stays a link to Prismic: the site does not serve it.
    const other = 'https://other.cdn.prismic.io/other/abc_vessel.glb'
    expect(hostedModelUrl(other, site)).toBe(other)
    expect(hostedModelUrl(prismic)).toBe(prismic)
    expect(hostedModelUrl('http://127.0.0.1:4010/media/a.glb', { extra: ['127.0.0.1:4010'] })).toBe(
      `/3d-models?src=${encodeURIComponent('http://127.0.0.1:4010/media/a.glb')}`,
    )
  })

  it('matches hosts exactly, not by suffix or prefix, and the repository by its path', () => {
    const allowed = (url: string) => isAssetUrl(new URL(url), site)
    expect(allowed('https://evil-cdn.prismic.io.example.com/my-studio/a.glb')).toBe(false)
    expect(allowed('https://cdn.prismic.io.evil.com/my-studio/a.glb')).toBe(false)
    expect(allowed('https://my-studio.cdn.prismic.io:8443/my-studio/a.glb')).toBe(false)
    expect(allowed('https://user:pw@images.prismic.io/my-studio/a.glb')).toBe(false)
    expect(allowed('https://images.prismic.io/my-studio/a.glb')).toBe(true)
    expect(allowed('https://IMAGES.prismic.io/my-studio/a.glb')).toBe(true)
    expect(allowed('https://images.prismic.io/my-studio')).toBe(true)
    expect(allowed('https://images.prismic.io/my-studio-2/a.glb')).toBe(false)
    expect(allowed('https://images.prismic.io/a.glb')).toBe(false)
    expect(allowed('https://my-studio.cdn.prismic.io/other/a.glb')).toBe(false)
    expect(allowed('https://my-studio.cdn.prismic.io/my-studio/%2e%2e/other/a.glb')).toBe(false)
    // With local content there is no repository: no Prismic file at all.
    expect(isAssetUrl(new URL('https://images.prismic.io/my-studio/a.glb'))).toBe(false)
  })

  it("names the site's repository from PRISMIC_REPOSITORY, a name or its endpoint on Prismic", () => {
    expect(repositoryOf({ mode: 'hosted', repository: 'my-studio' })).toBe('my-studio')
    expect(
      repositoryOf({ mode: 'hosted', repository: 'https://my-studio.cdn.prismic.io/api/v2' }),
    ).toBe('my-studio')
    expect(
      repositoryOf({ mode: 'hosted', repository: 'https://my-studio.prismic.io/api/v2' }),
    ).toBe('my-studio')
    // A stand-in's endpoint: its files come through PRISMIC_ASSET_HOSTS.
    expect(
      repositoryOf({ mode: 'hosted', repository: 'http://127.0.0.1:3238/api/v2' }),
    ).toBeUndefined()
    expect(repositoryOf({ mode: 'local', contentDir: 'content' })).toBeUndefined()
    // The route's scope, from the site's settings.
    expect(
      assetScope(
        loadConfig({
          PRISMIC_REPOSITORY: 'https://My-Studio.cdn.prismic.io/api/v2',
          PRISMIC_ASSET_HOSTS: '127.0.0.1:4010',
        }),
      ),
    ).toEqual({ repository: 'my-studio', extra: ['127.0.0.1:4010'] })
  })
})

describe('PRISMIC_ASSET_HOSTS', () => {
  it('adds hosts, each with an optional port, and names a malformed one', () => {
    expect(loadConfig({}).prismicAssetHosts).toEqual([])
    expect(
      loadConfig({ PRISMIC_ASSET_HOSTS: '127.0.0.1:4010, Assets.Example.com' }).prismicAssetHosts,
    ).toEqual(['127.0.0.1:4010', 'assets.example.com'])
    expect(() => loadConfig({ PRISMIC_ASSET_HOSTS: 'http://evil.example/' })).toThrow(ConfigError)
    expect(() => loadConfig({ PRISMIC_ASSET_HOSTS: 'http://evil.example/' })).toThrow(
      /PRISMIC_ASSET_HOSTS/,
    )
  })
})
