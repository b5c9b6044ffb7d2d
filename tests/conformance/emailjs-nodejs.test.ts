import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import emailjs, { EmailJSResponseStatus } from '@emailjs/nodejs'
import { afterEach, describe, expect, test } from 'vitest'
import { EMAILJS_TEXTS } from '@services/mail-api/errors'
import { serveMailApi, type ServedMail } from './helpers'

/**
 * The official `@emailjs/nodejs` (a client Facet does not use, written by EmailJS) against the
 * embedded mail API over a real socket. The client hard-codes `https` on port 443 to
 * `store.origin` (its `api/sendPost.js`), so the test routes that one connection to the API's
 * port: Node's `https.request` takes its default agent from `https.globalAgent`, replaced here
 * for the test's duration by an agent whose sockets are plain TCP to 127.0.0.1:<port>. Everything
 * else (the request the client builds, the bytes on the wire, the answer it parses) is real.
 */

const params = {
  name: 'Node Client',
  email: 'node@example.com',
  subject: 'From a server',
  message: 'Sent with @emailjs/nodejs',
  message_id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  lang: 'en-us',
}

const opened: ServedMail[] = []
const savedAgent = https.globalAgent
afterEach(async () => {
  https.globalAgent = savedAgent
  for (const served of opened.splice(0)) await served.close()
})

/** An agent that connects every request to `port` on 127.0.0.1, in plain TCP. */
class ToPort extends http.Agent {
  constructor(private readonly port: number) {
    super({ keepAlive: false })
  }

  override createConnection(): net.Socket {
    return net.connect(this.port, '127.0.0.1')
  }
}

async function serveFor(options: Parameters<typeof serveMailApi>[0]): Promise<ServedMail> {
  const served = await serveMailApi({ rateLimit: false, ...options })
  opened.push(served)
  // `https.request` reads its default agent from the module at each call.
  https.globalAgent = new ToPort(served.port) as unknown as https.Agent
  return served
}

/** What `emailjs.send` gives: the resolved status, or the one it rejected with. */
async function send(options: { publicKey?: string; privateKey?: string } = {}) {
  try {
    return await emailjs.send('svc', 'contact', params, { publicKey: 'pk', ...options })
  } catch (error) {
    if (error instanceof EmailJSResponseStatus) return error
    throw error
  }
}

describe('@emailjs/nodejs against the embedded mail API', () => {
  test('is refused as a non-browser application by default, with EmailJS’s 403', async () => {
    const served = await serveFor({})
    emailjs.init({ publicKey: 'pk' }, '127.0.0.1')
    expect(await send()).toEqual({ status: 403, text: EMAILJS_TEXTS.nonBrowserDisabled })
    expect(served.messages()).toEqual([])
  })

  test('sends once the account allows non-browser applications', async () => {
    const served = await serveFor({ allowNonBrowser: true })
    emailjs.init({ publicKey: 'pk' }, '127.0.0.1')
    expect(await send()).toEqual({ status: 200, text: 'OK' })
    expect(served.messages()).toEqual([`${params.message_id}.eml`])
  })

  test('with a private key on the account, needs it as privateKey', async () => {
    const served = await serveFor({ allowNonBrowser: true, privateKey: 'private-key' })
    emailjs.init({ publicKey: 'pk' }, '127.0.0.1')
    expect(await send()).toEqual({ status: 403, text: EMAILJS_TEXTS.privateKeyMissing })
    expect(await send({ privateKey: 'another-key' })).toEqual({
      status: 403,
      text: EMAILJS_TEXTS.privateKeyWrong,
    })
    expect(served.messages()).toEqual([])
    expect(await send({ privateKey: 'private-key' })).toEqual({ status: 200, text: 'OK' })
    expect(served.messages()).toHaveLength(1)
  })

  test('gets EmailJS’s 400 for an unknown public key', async () => {
    await serveFor({ allowNonBrowser: true })
    emailjs.init({ publicKey: 'pk' }, '127.0.0.1')
    expect(await send({ publicKey: 'nope' })).toEqual({
      status: 400,
      text: EMAILJS_TEXTS.publicKeyInvalid,
    })
  })
})
