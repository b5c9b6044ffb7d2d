/**
 * The arguments that start the standalone content API (services/content-api/cli.ts) with node,
 * through tsx, on `port` over the content folder `dir`; `extra` adds the CLI's own flags.
 */
export function contentApiArgs(port: number, dir: string, ...extra: string[]): string[] {
  return [
    '--import',
    'tsx',
    'services/content-api/cli.ts',
    '--port',
    String(port),
    '--content',
    dir,
    ...extra,
  ]
}
