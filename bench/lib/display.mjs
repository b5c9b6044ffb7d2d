// An X display for a browser in a window: `DISPLAY` when one is set, else a virtual one (Xvfb)
// started here and stopped with the benchmark.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

/** Resolves to `{ display, stop }`; `display` is a value for `DISPLAY`. */
export async function ensureDisplay() {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: () => {} }
  // The first display number with no X server's socket.
  let number = 99
  while (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) number++
  const xvfb = spawn('Xvfb', [`:${number}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: 'ignore',
  })
  const failed = new Promise((_, reject) =>
    xvfb.once('error', (error) =>
      reject(new Error(`Xvfb could not start (${error.message}): apt-get install xvfb`)),
    ),
  )
  const stop = () => xvfb.kill()
  process.on('exit', stop)
  const until = Date.now() + 10_000
  const ready = (async () => {
    while (!existsSync(`/tmp/.X11-unix/X${number}`)) {
      if (Date.now() > until || xvfb.exitCode !== null)
        throw new Error(`Xvfb :${number} did not start within 10 s`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  await Promise.race([ready, failed])
  return { display: `:${number}`, stop }
}
