import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * A copy of the working tree as a publisher's fresh checkout has it: the tracked files and the new
 * ones not ignored, committed in a repository of its own so that `git status` shows whatever a
 * command changes, with node_modules hard-linked (Turbopack refuses a symlinked node_modules).
 * Hard links cannot cross file systems: the copy goes beside the repository when the temporary
 * folder is on another.
 */
export type RepositoryCopy = {
  /** The copy's root. */
  dir: string
  /** Runs a command in the copy, failing with its output when it fails; returns the output. */
  run(command: string, args: string[], env?: NodeJS.ProcessEnv): string
  /** `git status --porcelain` in the copy: empty when nothing changed. */
  status(): string
  /** Deletes the copy. */
  remove(): void
}

function copyInto(base: string, files: string[]): string | undefined {
  const dir = path.join(base, 'repo')
  for (const file of files) cpSync(file, path.join(dir, file), { preserveTimestamps: true })
  if (spawnSync('cp', ['-al', 'node_modules', path.join(dir, 'node_modules')]).status === 0)
    return dir
  rmSync(base, { recursive: true, force: true })
  return undefined
}

/** Copies the repository at the working directory; `name` names the temporary folder. */
export function copyRepository(name: string): RepositoryCopy {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      encoding: 'utf8',
    },
  )
  if (listed.status !== 0)
    throw new Error(`the repository must be a git checkout: ${listed.stderr}`)
  const files = listed.stdout.split('\0').filter((file) => file && existsSync(file))
  const dir =
    copyInto(mkdtempSync(path.join(tmpdir(), `facet-${name}-`)), files) ??
    copyInto(mkdtempSync(path.join(path.dirname(process.cwd()), `.facet-${name}-`)), files)
  if (!dir) throw new Error(`cannot hard-link node_modules into a copy for ${name}`)

  const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
    const result = spawnSync(command, args, {
      cwd: dir,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    })
    const output = `${result.stdout}${result.stderr}`
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${output}`)
    return output
  }
  const git = (...args: string[]) =>
    run('git', ['-c', 'user.name=facet', '-c', 'user.email=facet@example.invalid', ...args])
  git('init', '-q')
  git('add', '-A')
  git('commit', '-qm', 'copy')
  return {
    dir,
    run,
    status: () => git('status', '--porcelain'),
    remove: () => rmSync(path.dirname(dir), { recursive: true, force: true }),
  }
}
