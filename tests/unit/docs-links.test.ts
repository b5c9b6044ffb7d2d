import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Every relative link and #anchor in README.md and docs/*.md leads somewhere: a file or folder
// that exists and, for a Markdown file, a heading with that anchor.
const pages = [
  'README.md',
  ...readdirSync('docs')
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, … as on GitHub). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const [, heading] of withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    out.add(count ? `${base}-${count}` : base)
  }
  return out
}

/** The text without fenced code blocks and code spans, where a link is only text. */
function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
}

function links(file: string): string[] {
  const text = withoutCode(readFileSync(file, 'utf8'))
  return [
    ...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
  ].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

describe.each(pages)('%s', (page) => {
  it('has only relative links that resolve, to a file and to a heading', () => {
    const broken: string[] = []
    for (const target of links(page)) {
      const [file, anchor] = target.split('#') as [string, string | undefined]
      const resolved = file ? path.join(path.dirname(page), decodeURI(file)) : page
      if (!existsSync(resolved)) {
        broken.push(`${target}: no ${resolved}`)
        continue
      }
      if (anchor === undefined) continue
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
        broken.push(`${target}: an anchor into something that is not a Markdown file`)
      else if (!anchors(resolved).has(anchor)) broken.push(`${target}: no heading #${anchor}`)
    }
    expect(broken).toEqual([])
  })
})

it('finds the links it checks', () => {
  expect(links('README.md').length).toBeGreaterThan(10)
  expect(anchors('docs/deploy.md').has('the-404-and-its-cost')).toBe(true)
})
