// The `--origins label=URL,…` and `--content label=DIR,…` arguments the model benches share
// (bench/models.ts, bench/viewers.ts).

/** `a=b,c=d` as [label, value] pairs; the label may not be empty. */
export const pairs = (text: string) =>
  text.split(',').map((pair) => {
    const at = pair.indexOf('=')
    if (at < 1) throw new Error(`"${pair}" is not label=value`)
    return [pair.slice(0, at), pair.slice(at + 1)] as const
  })

/** The sites named by `--origins`, each URL checked and without its trailing slash. */
export const originsOf = (text: string) =>
  pairs(text).map(([label, url]) => {
    if (!URL.canParse(url)) throw new Error(`--origins: "${url}" is not a URL`)
    return { label, url: url.replace(/\/$/, '') }
  })

/** Each site's content folder (`--content`), `content` for a site not named. */
export function contentFolders(text: string | undefined): (label: string) => string {
  const folders = new Map(text ? pairs(text) : [])
  return (label) => folders.get(label) ?? 'content'
}
