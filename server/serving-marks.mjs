// Which processes serve a build right now, so that no build replaces it in place under them.
//
// `next build` empties its folder before writing the new build. A server still running from that
// folder then answers from a mix of old and new files: pages that name chunks no longer there,
// or, as happened, pages built with another server's settings. So each server leaves a mark in
// the build folder while it runs (`facet-serving/<pid>`), and a build refuses to start while a
// mark names a live process (scripts/build-if-needed.mjs).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

function marksDir(distDir) {
  return path.join(distDir, 'facet-serving')
}

function isAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return error?.code === 'EPERM'
  }
}

/** Marks `distDir` as served by this process until it exits. */
export function markServing(distDir, pid = process.pid) {
  const dir = marksDir(distDir)
  mkdirSync(dir, { recursive: true })
  const mark = path.join(dir, String(pid))
  writeFileSync(mark, `${new Date().toISOString()}\n`)
  process.once('exit', () => rmSync(mark, { force: true }))
}

/**
 * The ids of the live processes, other than this one, that serve `distDir`. Marks left by
 * processes that died without cleaning up are removed.
 */
export function liveServers(distDir) {
  let names
  try {
    names = readdirSync(marksDir(distDir))
  } catch {
    return []
  }
  const live = []
  for (const name of names) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    if (isAlive(pid)) live.push(pid)
    else rmSync(path.join(marksDir(distDir), name), { force: true })
  }
  return live.sort((a, b) => a - b)
}
