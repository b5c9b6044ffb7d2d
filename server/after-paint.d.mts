/** The inline loader that adds these chunk scripts after the first paint. */
export function afterPaintLoader(srcs: string[]): string
/** Whether an inline script is exactly a loader that afterPaintLoader wrote. */
export function isAfterPaintLoader(body: string): boolean
/** The page with its chunk scripts loaded after the first paint. */
export function scriptsAfterFirstPaint(html: string): string
