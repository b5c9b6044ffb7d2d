import { expect, test } from '@playwright/test'

// How the production server (server/index.mjs) delivers a page: scripts after the first paint,
// static assets from their Brotli copies with the compile hint (docs/performance.md).

test('a page arrives without chunk scripts, paints, then loads them and hydrates', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/en-us/contact')).text()
  expect(html).not.toMatch(/<script src="\/_next\/static\/[^"]+\.js" async="">/)
  expect(html).not.toMatch(/<link rel="preload" as="script"/)
  const loader = /<script>(\(function\(s\)[\s\S]*?)<\/script><\/body>/.exec(html)
  expect(loader, 'the loader ends the body').not.toBeNull()

  const chunks: string[] = []
  page.on('request', (r) => r.url().includes('/_next/static/chunks/') && chunks.push(r.url()))
  await page.goto('/en-us/contact')
  // The scripts the loader names are fetched, and React takes over the server-rendered form.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const form = document.querySelector('form')
        return !!form && Object.keys(form).some((key) => key.startsWith('__react'))
      }),
    )
    .toBe(true)
  const named = JSON.parse(/\((\[[^\]]*\])\)$/.exec(loader![1])![1]) as string[]
  for (const src of named)
    expect(
      chunks.some((url) => url.endsWith(src)),
      src,
    ).toBe(true)
})

test('a static chunk is served from its Brotli copy, compile hint first', async ({ request }) => {
  const html = await (await request.get('/en-us')).text()
  const src = /\["(\/_next\/static\/chunks\/[^"]+\.js)"/.exec(html)![1]
  const res = await request.get(src, { headers: { 'accept-encoding': 'br' } })
  expect(res.status()).toBe(200)
  expect(res.headers()['content-encoding']).toBe('br')
  expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(res.headers()['x-content-type-options']).toBe('nosniff')
  expect((await res.text()).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true)
})
