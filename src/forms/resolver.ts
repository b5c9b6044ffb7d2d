import type { FieldValues, Resolver } from 'react-hook-form'

/**
 * A react-hook-form resolver for one of the zod schemas, loaded on the first validation (the
 * visitor's first blur or submit) instead of with the page: zod and the resolver are most of the
 * forms' weight, and a page that is only read never needs them.
 */
export function lazyZodResolver<T extends FieldValues>(
  name: 'contactFields' | 'newsletterFields',
): Resolver<T> {
  let resolver: Promise<Resolver<T>> | undefined
  return async (values, context, options) => {
    resolver ??= Promise.all([import('@hookform/resolvers/zod'), import('./schemas')]).then(
      ([{ zodResolver }, schemas]) => zodResolver(schemas[name]) as unknown as Resolver<T>,
    )
    return (await resolver)(values, context, options)
  }
}
