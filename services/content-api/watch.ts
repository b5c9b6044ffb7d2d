import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs'
import path from 'node:path'

/**
 * Watches a folder tree for any change: edits, atomic saves by rename, deletions and new folders.
 *
 * Written by hand because neither ready-made way sees every change on Linux: Node's recursive
 * `fs.watch` follows each file's inode, so once an editor (or `sed -i`) has replaced a file by
 * rename, later edits to it are lost; chokidar 4 re-attaches its per-file watcher after a rename
 * asynchronously and misses an edit made in that gap. A watcher on each directory (inotify on the
 * directory itself) reports every entry written, renamed or removed in it, whatever the inode.
 */
export type TreeWatcher = { close: () => void }

/** Calls `onChange` after every change under `root`; folders created later are watched too. */
export function watchTree(root: string, onChange: () => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>()

  const forget = (dir: string) => {
    for (const [watched, watcher] of watchers) {
      if (watched === dir || watched.startsWith(`${dir}${path.sep}`)) {
        watcher.close()
        watchers.delete(watched)
      }
    }
  }

  const add = (dir: string, initial = false) => {
    if (watchers.has(dir)) return
    let watcher: FSWatcher
    try {
      watcher = watch(dir, (_event, name) => {
        onChange()
        if (!name) return
        const changed = path.join(dir, name.toString())
        if (isDirectory(changed)) add(changed)
        else if (watchers.has(changed)) forget(changed)
      })
    } catch (error) {
      // Gone before it could be watched: its parent's watcher reported it. Anything else (the
      // system's limit of watches) is said, since changes under `dir` will go unseen.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        console.warn(`Not watching ${dir} for changes: ${(error as Error).message}`)
      return
    }
    // A watched folder that disappears errors on some platforms: stop watching it.
    watcher.on('error', () => forget(dir))
    watchers.set(dir, watcher)
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) add(path.join(dir, entry.name), initial)
    // Files written into a new folder before its watcher existed are read at the next reload.
    if (!initial) onChange()
  }

  if (existsSync(root)) add(root, true)
  return {
    close: () => {
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory()
  } catch {
    return false
  }
}
