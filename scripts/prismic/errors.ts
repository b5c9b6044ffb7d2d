import * as prismic from '@prismicio/client'
import * as customTypes from '@prismicio/custom-types-client'

/** A push or pull that cannot go on; its message is the whole sentence shown to the user. */
export class PrismicSyncError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PrismicSyncError'
  }
}

/** One readable clause for an error thrown by the official clients or by `fetch`. */
export function describeError(error: unknown, tokenVariable = 'PRISMIC_WRITE_TOKEN'): string {
  if (
    error instanceof prismic.ForbiddenError ||
    error instanceof customTypes.ForbiddenError ||
    error instanceof customTypes.UnauthorizedError
  )
    return `the token was refused (${error.message || 'forbidden'}); check ${tokenVariable}`
  if (error instanceof prismic.InvalidDataError || error instanceof customTypes.InvalidPayloadError)
    return `the service refused the data: ${error.message}`
  if (error instanceof prismic.NotFoundError || error instanceof customTypes.NotFoundError)
    return `the service does not know it: ${error.message}`
  if (error instanceof prismic.PrismicError && error.url)
    return `${error.message || 'the service failed'} (${error.url})`
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    return `${error.message}${cause ? ` (${cause})` : ''}`
  }
  return String(error)
}
