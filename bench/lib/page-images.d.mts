/** The URL of each image of the page that a phone at 2× loads. */
export function imagesOf(html: string): string[]
