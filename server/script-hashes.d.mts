/** Whether an inline script is one Next.js wrote, recognised by its exact shape. */
export function isFrameworkScript(body: string): boolean
/** The `'sha256-…'` sources for the framework's inline scripts, and how many were left out. */
export function inlineScriptHashes(html: string): { hashes: string[]; refused: number }
/** The policy with `'unsafe-inline'` in `script-src` replaced by the page's script hashes. */
export function withScriptHashes(policy: string, hashes: string[]): string
