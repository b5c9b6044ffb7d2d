import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

/**
 * One production server and one X display for every engine file.
 *
 * The server is `node scripts/start.mjs`, as a deployment runs it, on E2E_PORT (3217 unless
 * set), with the SITE_URL `npm test` built with: the Chromium stage has finished with that port,
 * and a matching build is reused, never made again. Xvfb picks a free display itself
 * (`-displayfd`), for the windows of Firefox with WebGL and of WebKit's MiniBrowser.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The site's origin. */
    origin: string
    /** The folder the embedded mail API writes each message into. */
    outbox: string
    /** The X display (`:N`) of the Xvfb this run started. */
    display: string
  }
}

const PORT = Number(process.env.E2E_PORT || 3217)
const ORIGIN = `http://127.0.0.1:${PORT}`
const OUTBOX = path.resolve('.data/engines-outbox')

/** Stops a process group this setup started, and waits for its leader to exit. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {
    return
  }
  await exited
}

async function startXvfb(): Promise<{ child: ChildProcess; display: string }> {
  const child = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  )
  let errors = ''
  child.stderr!.on('data', (chunk) => (errors += chunk))
  const display = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdio[3]!.on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolve(`:${out.trim()}`)
    })
    child.once('error', (error) =>
      reject(new Error(`Xvfb did not start (apt-get install -y xvfb): ${error.message}`)),
    )
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}:\n${errors}`)))
  })
  return { child, display }
}

async function startSite(): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(PORT),
      LISTEN_HOST: '127.0.0.1',
      SITE_URL: ORIGIN,
      OUTBOX_DIR: OUTBOX,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  // A build, when none matches, takes minutes; the server then answers within seconds.
  const until = Date.now() + 280_000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`scripts/start.mjs exited:\n${output}`)
    const up = await fetch(`${ORIGIN}/en-us`).then(
      (response) => response.ok,
      () => false,
    )
    if (up) return { child, output: () => output }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await stopGroup(child)
  throw new Error(`${ORIGIN} did not answer:\n${output}`)
}

export default async function setup(project: TestProject) {
  rmSync(OUTBOX, { recursive: true, force: true })
  mkdirSync(OUTBOX, { recursive: true })
  const xvfb = await startXvfb()
  let site: Awaited<ReturnType<typeof startSite>>
  try {
    site = await startSite()
  } catch (error) {
    await stopGroup(xvfb.child)
    throw error
  }
  project.provide('origin', ORIGIN)
  project.provide('outbox', OUTBOX)
  project.provide('display', xvfb.display)
  return async () => {
    await stopGroup(site.child)
    await stopGroup(xvfb.child)
  }
}
