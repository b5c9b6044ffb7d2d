/**
 * Whether bytes are glTF at all, read from their first bytes only: no parser, so the site's
 * routes can check what they fetch without loading glTF-Transform.
 */

/** Whether `bytes` starts with the GLB magic, `glTF`. */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46
}

/** Why `bytes` are not glTF (a GLB, or glTF JSON with `asset.version`), or null when they are. */
export function notGltf(bytes: Uint8Array): string | null {
  if (isGlb(bytes)) return null
  const start = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart()
  if (!start.startsWith('{')) return 'it is neither a GLB nor glTF JSON'
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as { asset?: { version?: unknown } }
    return typeof json.asset?.version === 'string' ? null : 'its JSON has no asset.version'
  } catch {
    return 'its JSON does not parse'
  }
}
