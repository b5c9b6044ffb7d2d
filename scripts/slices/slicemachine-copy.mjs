// Starts Slice Machine on a copy of the project's models, with the slice simulator at another
// URL: `node scripts/slices/slicemachine-copy.mjs --simulator http://localhost:3217/slice-simulator`.
//
// Slice Machine reads the simulator's URL from slicemachine.config.json only (no flag, no
// variable), and writes model.json, mocks.json and prismicio-types.d.ts on every save. The
// end-to-end test runs it here, on a throwaway copy (the config with its URL, customtypes/,
// src/slices/ with the mocks' URLs moved to that site, and node_modules linked), so that it can
// point at the test's server and never touches the working tree. Prints the copy's path, then Slice Machine's own output; stops it on
// SIGTERM or SIGINT and removes the copy.
import { spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: { simulator: { type: 'string' }, port: { type: 'string', default: '9999' } },
})
if (!values.simulator) {
  console.error('slicemachine-copy: --simulator <URL of /slice-simulator> is required')
  process.exit(2)
}

const root = process.cwd()
const copy = mkdtempSync(path.join(os.tmpdir(), 'facet-slicemachine-'))
for (const name of [
  'package.json',
  'tsconfig.json',
  '.prismicrc',
  '.prettierrc.json',
  'customtypes',
])
  cpSync(path.join(root, name), path.join(copy, name), { recursive: true })
cpSync(path.join(root, 'src', 'slices'), path.join(copy, 'src', 'slices'), { recursive: true })
symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir')
const config = JSON.parse(readFileSync(path.join(root, 'slicemachine.config.json'), 'utf8'))
// The mocks' URLs (images, pages) are absolute on the configured site: move them to this one.
const from = `"${new URL(config.localSliceSimulatorURL).origin}/`
const to = `"${new URL(values.simulator).origin}/`
for (const name of readdirSync(path.join(copy, 'src', 'slices'))) {
  const file = path.join(copy, 'src', 'slices', name, 'mocks.json')
  if (existsSync(file)) writeFileSync(file, readFileSync(file, 'utf8').split(from).join(to))
}
config.localSliceSimulatorURL = values.simulator
writeFileSync(path.join(copy, 'slicemachine.config.json'), `${JSON.stringify(config, null, 2)}\n`)
console.log(`slicemachine-copy: ${copy}`)

const child = spawn(
  process.execPath,
  [
    path.join(root, 'node_modules', 'slice-machine-ui', 'bin', 'start-slicemachine.cjs'),
    '--port',
    values.port,
  ],
  { cwd: copy, stdio: 'inherit' },
)
const cleanUp = () => rmSync(copy, { recursive: true, force: true })
for (const signal of ['SIGTERM', 'SIGINT'])
  process.on(signal, () => {
    child.kill('SIGTERM')
  })
child.on('exit', (code, signal) => {
  cleanUp()
  process.exit(code ?? (signal ? 1 : 0))
})
