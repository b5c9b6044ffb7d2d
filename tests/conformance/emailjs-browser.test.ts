import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { chromium, type Browser, type Page } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { EMAILJS_TEXTS } from '@services/mail-api/errors'
import { chromiumArgs, chromiumPath } from '../suites/e2e.playwright'
import { serveMailApi, type ServedMail } from './helpers'

/**
 * `@emailjs/browser`'s own bundle, in a real Chromium page served from another origin than the
 * mail API's (another port): `send` (JSON, with a CORS preflight) and `sendForm` (multipart) reach
 * the API, the message lands in the outbox, and the SDK resolves with the API's real answer. A
 * page on an origin the API does not allow gets the 403 as a status the SDK can read.
 */

const SDK = readFileSync(
  createRequire(import.meta.url).resolve('@emailjs/browser/dist/email.min.js'),
)

const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Another site</title><script src="/email.min.js"></script></head>
  <body>
    <form id="newsletter">
      <input name="email" value="reader@example.com">
      <input name="message_id" value="5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f">
      <input name="lang" value="en-us">
    </form>
  </body>
</html>`

/** A tiny site on its own port: the page and the SDK's bundle. */
async function serveSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const isSdk = request.url === '/email.min.js'
    response.writeHead(200, {
      'Content-Type': isSdk ? 'text/javascript' : 'text/html; charset=utf-8',
    })
    response.end(isSdk ? SDK : PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

type Answer = { status: number; text: string }

const contactParams = {
  name: 'Browser Visitor',
  email: 'visitor@example.com',
  subject: 'From another origin',
  message: 'Sent with emailjs.send',
  message_id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5',
  lang: 'en-us',
}

/** Runs `emailjs.send` in the page; resolves with what the SDK resolved or rejected with. */
function sendFrom(page: Page, api: string): Promise<Answer> {
  return page.evaluate(
    async ({ api, params }) => {
      const sdk = (window as unknown as { emailjs: typeof import('@emailjs/browser') }).emailjs
      sdk.init({ publicKey: 'pk' }, api)
      try {
        const { status, text } = await sdk.send('svc', 'contact', params)
        return { status, text }
      } catch (error) {
        const { status, text } = error as Answer
        return { status, text }
      }
    },
    { api, params: contactParams },
  )
}

/** Runs `emailjs.sendForm` on the page's form; resolves with the SDK's answer. */
function sendFormFrom(page: Page, api: string): Promise<Answer> {
  return page.evaluate(async (api) => {
    const sdk = (window as unknown as { emailjs: typeof import('@emailjs/browser') }).emailjs
    sdk.init({ publicKey: 'pk' }, api)
    try {
      const { status, text } = await sdk.sendForm('svc', 'newsletter', '#newsletter')
      return { status, text }
    } catch (error) {
      const { status, text } = error as Answer
      return { status, text }
    }
  }, api)
}

let browser: Browser
let allowed: { origin: string; server: Server }
let other: { origin: string; server: Server }
let mail: ServedMail

beforeAll(async () => {
  ;[allowed, other] = await Promise.all([serveSite(), serveSite()])
  // The rate limit has its own tests; here two sends follow each other at once.
  mail = await serveMailApi({ allowedOrigins: [allowed.origin], rateLimit: false })
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await mail?.close()
  for (const site of [allowed, other]) site?.server.close()
})

async function pageOn(origin: string): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(`${origin}/`)
  return page
}

describe('@emailjs/browser in Chromium on another origin', () => {
  test('send and sendForm from an allowed origin arrive, and the SDK reports success', async () => {
    const page = await pageOn(allowed.origin)
    try {
      expect(await sendFrom(page, mail.origin)).toEqual({ status: 200, text: 'OK' })
      expect(mail.messages()).toContain(`${contactParams.message_id}.eml`)
      expect(await sendFormFrom(page, mail.origin)).toEqual({ status: 200, text: 'OK' })
      expect(mail.messages()).toContain('5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f.eml')
    } finally {
      await page.close()
    }
  })

  test('a page on an origin the account does not allow gets a 403 the SDK can read', async () => {
    const before = mail.messages().length
    const page = await pageOn(other.origin)
    try {
      const refusal = { status: 403, text: EMAILJS_TEXTS.forbiddenOrigin }
      expect(await sendFrom(page, mail.origin)).toEqual(refusal)
      expect(await sendFormFrom(page, mail.origin)).toEqual(refusal)
      expect(mail.messages()).toHaveLength(before)
    } finally {
      await page.close()
    }
  })
})
