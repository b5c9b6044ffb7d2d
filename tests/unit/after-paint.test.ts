import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  afterPaintLoader,
  isAfterPaintLoader,
  scriptsAfterFirstPaint,
} from '../../server/after-paint.mjs'
import { preparePage } from '../../server/page-cache.mjs'
import { inlineScriptHashes } from '../../server/script-hashes.mjs'

const page = [
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/>',
  '<link rel="preload" href="/hero.svg" as="image" fetchPriority="high"/>',
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>',
  '<script src="/_next/static/chunks/b.js" async=""></script>',
  '<script src="/_next/static/chunks/c.js" async=""></script>',
  '<script src="/_next/static/chunks/polyfill.js" noModule=""></script>',
  '</head><body><main><h1>Hello</h1><p>&lt;script src="/_next/static/chunks/x.js" async=""&gt;</p></main>',
  '<script id="_R_">(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":[],"runtimeModuleIds":[1]});</script>',
  '<script src="/_next/static/chunks/a.js" async=""></script>',
  '<script>(self.__next_f=self.__next_f||[]).push([0])</script>',
  '</body></html>',
].join('')

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('scriptsAfterFirstPaint', () => {
  const out = scriptsAfterFirstPaint(page)

  it('takes out the chunk scripts and their early preloads, and nothing else', () => {
    expect(out).not.toMatch(/<script src="\/_next\/static\/chunks\/[abc]\.js"/)
    expect(out).not.toContain('as="script" fetchPriority="low" href="/_next/static/chunks/a.js"')
    // The image preload, the noModule polyfill, escaped text and Next's inline scripts stay.
    expect(out).toContain('<link rel="preload" href="/hero.svg" as="image" fetchPriority="high"/>')
    expect(out).toContain('polyfill.js" noModule=""')
    expect(out).toContain('&lt;script src="/_next/static/chunks/x.js" async=""&gt;')
    expect(out).toContain('<script id="_R_">')
    expect(out).toContain('(self.__next_f=self.__next_f||[]).push([0])')
  })

  it('ends the body with one loader for the same scripts, in the same order', () => {
    const loader = afterPaintLoader([
      '/_next/static/chunks/b.js',
      '/_next/static/chunks/c.js',
      '/_next/static/chunks/a.js',
    ])
    expect(out.endsWith(`<script>${loader}</script></body></html>`)).toBe(true)
    expect(out.split('<script>(function(s)').length).toBe(2)
  })

  it('leaves a page without chunk scripts, without a body end, or an error shell as it was', () => {
    const plain = '<!DOCTYPE html><html><head></head><body><p>hi</p></body></html>'
    expect(scriptsAfterFirstPaint(plain)).toBe(plain)
    const partial = page.replace('</body></html>', '')
    expect(scriptsAfterFirstPaint(partial)).toBe(partial)
    // Next's error shell paints nothing before its scripts run.
    const shell = page.replace('<html>', '<html id="__next_error__">')
    expect(scriptsAfterFirstPaint(shell)).toBe(shell)
  })

  it('gives the loader a place in the Content Security Policy, and only that loader', () => {
    const { hashes, refused } = inlineScriptHashes(out)
    const loader = /<script>(\(function\(s\)[\s\S]*?)<\/script>/.exec(out)![1]
    expect(hashes).toContain(sha(loader))
    expect(refused).toBe(0)
  })
})

describe('isAfterPaintLoader', () => {
  it('recognises the loader it writes', () => {
    expect(isAfterPaintLoader(afterPaintLoader(['/_next/static/chunks/a.js']))).toBe(true)
  })

  it('refuses a changed body, foreign URLs, or no URLs', () => {
    const good = afterPaintLoader(['/_next/static/chunks/a.js'])
    for (const body of [
      good.replace('e.async=true', 'e.async=true;alert(1)'),
      afterPaintLoader(['https://evil.example/x.js']),
      afterPaintLoader(['/_next/static/chunks/a.js"onload="alert(1)']),
      afterPaintLoader([]),
      good.replace('["/_next/static/chunks/a.js"]', 'alert(1)'),
      `${good};alert(1)`,
    ]) {
      expect(isAfterPaintLoader(body), body).toBe(false)
    }
  })
})

describe('preparePage', () => {
  const answer = {
    status: 200,
    headers: { 'content-security-policy': "script-src 'self' 'unsafe-inline'" },
    body: Buffer.from(page),
  }

  it('holds the chunk scripts for the first paint by default', () => {
    const html = preparePage(answer).html.toString()
    expect(html).not.toContain('<script src="/_next/static/chunks/b.js" async="">')
    expect(html).toContain(
      afterPaintLoader([
        '/_next/static/chunks/b.js',
        '/_next/static/chunks/c.js',
        '/_next/static/chunks/a.js',
      ]),
    )
  })

  it('keeps them as Next.js wrote them with afterPaint: false (the slice simulator, framed hidden)', () => {
    const prepared = preparePage(answer, { afterPaint: false })
    expect(prepared.html.toString()).toBe(page)
    expect(prepared.headers['content-security-policy']).not.toContain("'unsafe-inline'")
  })
})
