// Runs Lighthouse (mobile, default config) once on a URL and prints the figures as JSON. Plain
// JavaScript on purpose: under tsx, esbuild adds `__name` helpers to functions, and Lighthouse
// serializes some of its functions into the page, where `__name` does not exist.
import lighthouse from 'lighthouse'
import * as chromeLauncher from 'chrome-launcher'

const [url, chromePath, ...flags] = process.argv.slice(2)
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', ...flags],
})
try {
  const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' })
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
    .filter((a) => a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => a.id)
  console.log(
    JSON.stringify({
      formFactor: 'mobile',
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
      cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
      totalBytes: Math.round(lhr.audits['total-byte-weight']?.numericValue ?? NaN),
      lcpElement:
        lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node
          ?.snippet,
      failing,
      runtimeError: lhr.runtimeError?.message,
    }),
  )
} finally {
  chrome.kill()
}
