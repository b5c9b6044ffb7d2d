// Graceful shutdown: on SIGTERM or SIGINT the server stops accepting connections, lets the
// requests in flight finish (up to a bound), then the process exits. A rolling deploy or a
// scale-down then drops no visitor's request, as with `next start`.
//
// Written here because Node's `server.close()` alone waits for every keep-alive connection to
// go idle on its own, which a busy client may never do, and has no bound.

/** How long requests in flight may take to finish before their connections are cut. */
export const DEFAULT_DRAIN_MS = 10_000

/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 100

/**
 * Stops `server` accepting connections, closes each connection once it is idle (so a client's
 * next request opens a new connection, to another node), and resolves when the last request
 * in flight has finished, or after `timeoutMs`, when the connections left are cut. Resolves to
 * whether it had to cut any.
 */
export function closeGracefully(server, { timeoutMs = DEFAULT_DRAIN_MS } = {}) {
  return new Promise((resolve) => {
    let done = false
    const finish = (forced) => {
      if (done) return
      done = true
      clearInterval(sweep)
      clearTimeout(deadline)
      resolve({ forced })
    }
    // Requests already read on a kept-alive connection are still answered, with
    // `Connection: close`, so that the client does not send the next one here.
    server.on('request', (_req, res) => {
      res.shouldKeepAlive = false
    })
    server.close(() => finish(false))
    server.closeIdleConnections()
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS)
    const deadline = setTimeout(() => {
      server.closeAllConnections()
      finish(true)
    }, timeoutMs)
  })
}

/**
 * On the first SIGTERM or SIGINT: calls `onDrain` (readiness turns to 503), drains `server`
 * with `closeGracefully`, then calls `exit(0)`. A second signal exits at once, for an operator
 * who does not want to wait.
 */
export function drainOnSignals(
  server,
  {
    timeoutMs = DEFAULT_DRAIN_MS,
    onDrain = () => {},
    exit = (code) => process.exit(code),
    log = console,
  } = {},
) {
  let draining = false
  const onSignal = async (signal) => {
    if (draining) {
      log.warn(`${signal} again: exiting without waiting for requests in flight.`)
      return exit(1)
    }
    draining = true
    log.log(
      `${signal}: no new connections; finishing requests in flight (at most ${timeoutMs} ms).`,
    )
    onDrain()
    const { forced } = await closeGracefully(server, { timeoutMs })
    if (forced) log.warn(`Requests still in flight after ${timeoutMs} ms were cut.`)
    exit(0)
  }
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, onSignal)
}
