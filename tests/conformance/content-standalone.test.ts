import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as prismic from '@prismicio/client'
import { describe, expect, it, vi } from 'vitest'
import { buildFixture } from '../fixtures/content-builder'
import { freePort, serveContentApi, started } from './helpers'

/**
 * A content folder no other test has seen (random seed, temp dir) served standalone by
 * `npm run content-api -- --port N --content DIR`, and the master ref moving under `watch`.
 */

describe('standalone content API', () => {
  it('serves a fresh random content folder to the official client on 127.0.0.1:N', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'facet-unseen-'))
    const seed = Math.floor(Math.random() * 2 ** 31)
    const fixture = buildFixture(dir, { count: 30 + (seed % 50), seed })
    const port = await freePort()
    // npm starts a shell that starts tsx: a process group of its own, stopped as a whole.
    const child = spawn(
      'npm',
      ['run', 'content-api', '--', '--port', String(port), '--content', dir],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_ENV: 'production' },
      },
    )
    try {
      await started(child)
      const client = prismic.createClient<prismic.PrismicDocument>(
        `http://127.0.0.1:${port}/api/v2`,
      )
      const repository = await client.getRepository()
      expect(repository.languages.find((l) => l.is_master)?.id).toBe('en-us')
      const everything = await client.dangerouslyGetAll({ lang: '*' })
      expect(everything.map((d) => `${d.lang}:${d.type}:${d.uid ?? '-'}`).sort()).toEqual(
        fixture.documents.map((d) => `${d.lang}:${d.type}:${d.uid ?? '-'}`).sort(),
      )
      const one = fixture.documents.find((d) => d.type === 'article' && d.lang === 'en-us')!
      expect((await client.getByUID('article', one.uid!)).data.summary).toBe(one.data.summary)
      expect((await client.getSingle('settings')).data.site_name).toBe('Fixture site')
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('moves the master ref when a watched folder changes, and answers the old ref with 410 (RefExpiredError)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'facet-watch-'))
    buildFixture(dir, { count: 5, seed: 11 })
    const served = await serveContentApi({ contentDir: dir, modelsDir: dir, watch: true })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const client = prismic.createClient<prismic.PrismicDocument>(served.endpoint)
      const before = (await client.getMasterRef()).ref
      const file = path.join(dir, 'documents/settings/settings/en-us.json')
      const doc = JSON.parse(readFileSync(file, 'utf8'))
      doc.data.site_name = 'Renamed site'
      writeFileSync(file, JSON.stringify(doc))
      let after = before
      for (let i = 0; i < 100 && after === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        const repository = (await (await fetch(served.endpoint)).json()) as prismic.Repository
        after = repository.refs[0]!.ref
      }
      expect(after).not.toBe(before)
      const raw = await fetch(`${served.endpoint}/documents/search?ref=${before}`)
      expect(raw.status).toBe(410)
      expect(((await raw.json()) as { message: string }).message).toMatch(
        new RegExp(`Master ref is: ${after}$`),
      )
      const settings = await client.getSingle('settings', { ref: before })
      expect(settings.data.site_name).toBe('Renamed site')
      expect(warn.mock.calls.flat().join(' ')).toContain(`The ref (${before}) was expired`)
    } finally {
      warn.mockRestore()
      await served.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
