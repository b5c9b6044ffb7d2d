// Liveness and readiness, for load balancers and orchestrators, answered by the serving layer
// before anything else: a probe never waits behind page renders in the queue.
//
// - `GET /healthz` (liveness): 200 while the process answers at all. A failing liveness probe
//   means "restart me"; nothing but a hung process should fail it.
// - `GET /readyz` (readiness): 200 when this node should get traffic, 503 while it drains on
//   shutdown or while a readiness check fails. Checks are pluggable (`addCheck`): a shared
//   cache, for one, adds its own.
//
// Both answer JSON with `Cache-Control: no-store` (a CDN must never keep a probe's answer).

/** Paths of the probes. */
export const LIVENESS_PATH = '/healthz'
export const READINESS_PATH = '/readyz'

/** A check that takes longer than this counts as failed: a probe must answer quickly. */
const CHECK_TIMEOUT_MS = 2_000

function send(req, res, status, body) {
  const json = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
  })
  res.end(req.method === 'HEAD' ? undefined : json)
}

async function runCheck(check) {
  let timer
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        )
      }),
    ])
    return 'ok'
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The probes' state. `answer(req, res)` answers a probe and returns true, or returns false for
 * any other request. `addCheck(name, check)` adds a readiness check: an async function that
 * throws (or rejects) when the node is not ready, with a message saying why. `drain()` marks
 * the node as shutting down. `addInfo(name, info)` adds a figure to the readiness answer.
 */
export function createHealth() {
  const checks = new Map()
  const infos = new Map()
  let draining = false

  async function readiness(req, res) {
    const results = {}
    await Promise.all(
      [...checks].map(async ([name, check]) => {
        results[name] = await runCheck(check)
      }),
    )
    const failing = Object.values(results).some((result) => result !== 'ok')
    const extra = Object.fromEntries([...infos].map(([name, info]) => [name, info()]))
    if (draining) send(req, res, 503, { status: 'draining', checks: results, ...extra })
    else if (failing) send(req, res, 503, { status: 'unavailable', checks: results, ...extra })
    else send(req, res, 200, { status: 'ready', checks: results, ...extra })
  }

  return {
    addCheck(name, check) {
      checks.set(name, check)
    },
    /** Adds `name` to the readiness answer's body: what `info()` returns at that moment. */
    addInfo(name, info) {
      infos.set(name, info)
    },
    drain() {
      draining = true
    },
    answer(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false
      const path = req.url?.split('?')[0]
      if (path === LIVENESS_PATH) {
        send(req, res, 200, { status: 'alive' })
        return true
      }
      if (path === READINESS_PATH) {
        readiness(req, res).catch((error) => {
          console.error(error)
          if (!res.headersSent) send(req, res, 503, { status: 'unavailable' })
        })
        return true
      }
      return false
    },
  }
}
