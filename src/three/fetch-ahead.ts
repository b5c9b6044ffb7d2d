// A file fetched ahead of the code that will ask for it (a worker's scripts, a decoder, a chunk's
// files), so that the later request finds it in the HTTP cache or joins its download.

/**
 * Fetches `url` whole (the body read, so that the cache keeps it), as the same origin's code
 * would. Resolves once it is here, or once the fetch failed: the later request meets the failure
 * and reports it.
 */
export function fetchAhead(url: string | URL): Promise<void> {
  return fetch(url, { credentials: 'same-origin' })
    .then((response) => response.arrayBuffer())
    .then(
      () => {},
      () => {},
    )
}
