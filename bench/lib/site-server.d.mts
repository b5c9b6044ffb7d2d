/**
 * Starts the site on `port` (built if needed) and resolves once `/en-us` answers; `stop` ends the
 * server's process group.
 */
export function startSite(options: {
  port: number
  siteUrl?: string
}): Promise<{ pid: number | undefined; stop: () => void }>
