// The production site for a benchmark: built if needed, then `server/index.mjs` on loopback in a
// process group of its own, stopped with the benchmark however it ends.
import { spawn } from 'node:child_process'
import { buildIfNeeded } from '../../scripts/build-if-needed.mjs'

/**
 * Starts the site on `port` and resolves once `/en-us` answers (within 60 s). `siteUrl` is the
 * build setting (the server answers under any host; a matching one reuses a build). Returns the
 * server's process-group leader and the function that stops the group.
 */
export async function startSite({ port, siteUrl }) {
  const origin = `http://127.0.0.1:${port}`
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    SITE_URL: siteUrl || origin,
    PORT: String(port),
    LISTEN_HOST: '127.0.0.1',
  }
  buildIfNeeded(env)
  const server = spawn(process.execPath, ['server/index.mjs'], {
    env,
    stdio: 'ignore',
    detached: true,
  })
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {
      /* already stopped */
    }
  }
  process.on('exit', stop)
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    const up = await fetch(`${origin}/en-us`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { pid: server.pid, stop }
    await new Promise((r) => setTimeout(r, 250))
  }
  stop()
  throw new Error(`${origin} did not answer within 60 s`)
}
