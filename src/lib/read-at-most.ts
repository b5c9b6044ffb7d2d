// Reading a body with a ceiling, whatever its headers claim: the webhook's request body
// (content/webhook.ts) and a model prefetched before the visitor engages (three/render/prefetch.ts).
// No Node.js APIs: the renderer's worker uses it too.

/**
 * The stream's bytes, whole; or, once more than `limit` bytes have come, the rest cancelled and
 * the error `refuse` makes thrown.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array>,
  limit: number,
  refuse: () => Error,
): Promise<Uint8Array> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw refuse()
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}
