import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  inlineScriptHashes,
  isFrameworkScript,
  withScriptHashes,
} from '../../server/script-hashes.mjs'

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

const start = '(self.__next_f=self.__next_f||[]).push([0])'
const chunk = 'self.__next_f.push([1,"1:\\"$Sreact.fragment\\"\\n"])'
const bootstrap =
  '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/a.js"],"runtimeModuleIds":[1]});'

describe('isFrameworkScript', () => {
  it('recognises the scripts Next.js writes', () => {
    expect(isFrameworkScript(start)).toBe(true)
    expect(isFrameworkScript(`${start};self.__next_f.push([2,null])`)).toBe(true)
    expect(isFrameworkScript(chunk)).toBe(true)
    expect(isFrameworkScript('self.__next_f.push([3,"AAEC"])')).toBe(true)
    expect(isFrameworkScript(bootstrap)).toBe(true)
  })

  it('refuses anything else, even when it starts like one', () => {
    for (const body of [
      'alert(1)',
      'self.__next_f.push([1,"x"]);alert(1)',
      'self.__next_f.push([1,"x"]);alert(1);self.__next_f.push([1,"y"])',
      'self.__next_f.push(alert(1))',
      'self.__next_f.push(["x"])',
      `${start};alert(1)`,
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push(alert(1));',
      '',
    ]) {
      expect(isFrameworkScript(body), body).toBe(false)
    }
  })
})

describe('inlineScriptHashes', () => {
  it('hashes the framework scripts, skips external scripts and data blocks, and counts the rest', () => {
    const html = [
      '<html><head><script src="/_next/static/chunks/a.js" async=""></script>',
      `<script id="_R_">${bootstrap}</script></head><body>`,
      '<script type="application/ld+json">{"@type":"Article"}</script>',
      `<script>${start}</script><script>${chunk}</script><script>${chunk}</script>`,
      '<p>content</p><script>alert(document.cookie)</script>',
      '<script type="module">import("/x.js")</script>',
      '</body></html>',
    ].join('')
    const { hashes, refused } = inlineScriptHashes(html)
    expect(hashes.sort()).toEqual([sha(bootstrap), sha(start), sha(chunk)].sort())
    expect(refused).toBe(2)
  })

  it('hashes the exact text between the tags, in UTF-8', () => {
    const text = 'self.__next_f.push([1,"café — 東京"])'
    expect(inlineScriptHashes(`<script>${text}</script>`).hashes).toEqual([sha(text)])
  })
})

describe('withScriptHashes', () => {
  it("replaces 'unsafe-inline' in script-src only", () => {
    const policy =
      "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'"
    expect(withScriptHashes(policy, ["'sha256-A'", "'sha256-B'"])).toBe(
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-A' 'sha256-B'; style-src 'self' 'unsafe-inline'",
    )
  })

  it('leaves a page without inline scripts with no inline allowance at all', () => {
    expect(withScriptHashes("script-src 'self' 'unsafe-inline'", [])).toBe("script-src 'self'")
  })
})
