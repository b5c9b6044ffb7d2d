import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// The build's loader for three.js's modules (next.config.ts): their GLSL loses its comments,
// indentation and blank lines, and nothing else.
const require = createRequire(import.meta.url)
const loader = require('../../scripts/glsl-minify-loader.cjs') as ((code: string) => string) & {
  minifyGlsl: (glsl: string) => string
}

const SHADERS = path.join(path.dirname(require.resolve('three')), '../src/renderers/shaders')
const glslOf = (module: string) =>
  [...module.matchAll(/\/\* glsl \*\/\s*`([^`]*)`/g)].map((match) => match[1]!)
/** GLSL's tokens, comments left out: what the compiler reads. */
const tokens = (glsl: string) =>
  glsl
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, '')
    .split(/\s+/)
    .filter(Boolean)
/** Its preprocessor lines, each whole: a directive ends at its line's end. */
const directives = (glsl: string) =>
  glsl
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter((line) => line.startsWith('#'))

describe('the GLSL loader', () => {
  it('keeps every token and every directive line of each of three.js’s shader chunks', () => {
    const files = ['ShaderChunk', 'ShaderLib'].flatMap((folder) =>
      readdirSync(path.join(SHADERS, folder)).map((name) => path.join(SHADERS, folder, name)),
    )
    expect(files.length).toBeGreaterThan(100)
    let before = 0
    let after = 0
    for (const file of files) {
      const source = readFileSync(file, 'utf8')
      const out = loader(source)
      const [original, minified] = [glslOf(source), glslOf(out)]
      expect(minified.length, file).toBe(original.length)
      original.forEach((glsl, i) => {
        expect(tokens(minified[i]!), file).toEqual(tokens(glsl))
        expect(directives(minified[i]!), file).toEqual(directives(glsl))
      })
      before += source.length
      after += out.length
    }
    expect(after).toBeLessThan(before * 0.9)
  })

  it('strips comments, indentation and blank lines, and leaves a template with ${…} alone', () => {
    expect(
      loader.minifyGlsl(
        '\n\t// the light\n\t#ifdef USE_X /* on */\n\t\tfloat a = 1.0; // one\n\n\t#endif\n',
      ),
    ).toBe('#ifdef USE_X\nfloat a = 1.0;\n#endif')
    const withValue = 'const s = /* glsl */`\n\t// kept\n\tfloat a = ${n};\n`'
    expect(loader(withValue)).toBe(withValue)
    expect(loader('export const a = `\n\t// not GLSL\n`')).toBe(
      'export const a = `\n\t// not GLSL\n`',
    )
  })
})
