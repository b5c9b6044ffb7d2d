import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form'
import { cachedUntilRejected } from '@/lib/cached-until-rejected'
import { LIMITS, type FieldErrorCode } from './limits'

/**
 * A react-hook-form resolver for one of the zod schemas, loaded on the first validation (the
 * visitor's first blur or submit) instead of with the page: zod and the resolver are most of the
 * forms' weight, and a page that is only read never needs them.
 *
 * When that code cannot be fetched (the connection dropped before the visitor touched the form),
 * the form still checks what needs no code, the required fields and their lengths, so the message
 * can go to the outbox instead of being stuck on the page. The full schema checks it again before
 * it is sent (`attemptDelivery`), and the next validation tries to load the schemas again.
 */
export function lazyZodResolver<T extends FieldValues>(
  name: 'contactFields' | 'newsletterFields',
): Resolver<T> & { prepare: () => void } {
  const load = cachedUntilRejected(() =>
    Promise.all([import('@hookform/resolvers/zod'), import('./schemas')]).then(
      ([{ zodResolver }, schemas]) => zodResolver(schemas[name]) as unknown as Resolver<T>,
    ),
  )
  const resolver: Resolver<T> = async (values, context, options) => {
    let resolve: Resolver<T>
    try {
      resolve = await load()
    } catch {
      return offlineCheck(values)
    }
    return resolve(values, context, options)
  }
  // Called when the visitor enters the form: the schemas arrive while they type, and the first
  // blur's message shows in the same moment instead of after a fetch.
  const prepare = () => void load().catch(() => undefined)
  return Object.assign(resolver, { prepare })
}

/** Every field is required and bounded by `LIMITS`: the check that needs no schema code. */
export function offlineCheck<T extends FieldValues>(values: T) {
  const errors: Record<string, { type: string; message: FieldErrorCode }> = {}
  for (const [field, value] of Object.entries(values)) {
    const text = typeof value === 'string' ? value.trim() : ''
    const max = LIMITS[field as keyof typeof LIMITS]
    if (!text) errors[field] = { type: 'required', message: 'required' }
    else if (max !== undefined && text.length > max)
      errors[field] = { type: 'too_long', message: 'too_long' }
  }
  return Object.keys(errors).length > 0
    ? { values: {}, errors: errors as FieldErrors<T> }
    : { values, errors: {} }
}
