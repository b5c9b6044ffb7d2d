import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The content API alone over one content folder (argument 1), for `npm run bench:scale`: load
 * time, the process's RSS once loaded, and p50/p95 of a filtered, ordered page of 20 and of a
 * full-text page, through the in-process handler (what the site does). The API is the one of the
 * checkout this runs in (its working directory), so a run can measure an older checkout too.
 * Prints one line of JSON.
 */

type ContentApiModule = typeof import('../../services/content-api/app')

const RUNS = 200
const WORDS = ['north', 'amber', 'quiet', 'lumen', 'cobalt', 'fjord', 'sable', 'thistle', 'vale']

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? '')
  const { createContentApi } = (await import(
    pathToFileURL(path.join(process.cwd(), 'services/content-api/app.ts')).href
  )) as ContentApiModule
  const started = performance.now()
  // A generated folder carries its models; the sample content's are the checkout's.
  const modelsDir = existsSync(path.join(dir, 'customtypes')) ? dir : process.cwd()
  const api = createContentApi({ contentDir: dir, modelsDir })
  const ref = api.store().ref
  const loadMs = Math.round(performance.now() - started)
  global.gc?.()
  const rssMB = Math.round(process.memoryUsage().rss / 2 ** 20)
  const url = (q: string[], extra: Record<string, string>) => {
    const search = new URLSearchParams({ ref, lang: 'en-us', pageSize: '20', ...extra })
    for (const filter of q) search.append('q', filter)
    return `http://bench.local/api/v2/documents/search?${search}`
  }
  const queries: Record<string, (i: number) => string> = {
    filtered: (i) =>
      url(
        ['[[at(document.type,"post")]]', `[[any(document.tags,["${WORDS[i % WORDS.length]}"])]]`],
        {
          orderings: '[my.post.date desc,document.first_publication_date desc]',
          page: String(1 + (i % 5)),
        },
      ),
    fulltext: (i) =>
      url(['[[at(document.type,"post")]]', `[[fulltext(document,"${WORDS[i % WORDS.length]}")]]`], {
        orderings: '[my.post.date desc,document.first_publication_date desc]',
      }),
  }
  const out: Record<string, { p50: number; p95: number }> = {}
  for (const [name, make] of Object.entries(queries)) {
    const times: number[] = []
    for (let i = 0; i < RUNS + 10; i++) {
      const t = performance.now()
      const response = await api.fetch(new Request(make(i)))
      await response.text()
      if (response.status !== 200) throw new Error(`${name}: status ${response.status}`)
      if (i >= 10) times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    const at = (p: number) =>
      Math.round(times[Math.ceil((p / 100) * times.length) - 1]! * 100) / 100
    out[name] = { p50: at(50), p95: at(95) }
  }
  api.close()
  console.log(JSON.stringify({ documents: api.store().documents.length, loadMs, rssMB, ...out }))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
