'use client'

import { useCallback, useEffect, useState } from 'react'
import { useForm, type DefaultValues } from 'react-hook-form'
import type { PublicMailOptions } from '@/lib/mail/options'
import type { FormKind } from './schemas'
import { lazyZodResolver } from './resolver'
import { useMailDelivery } from './useMailDelivery'

/**
 * What both forms share: react-hook-form validated by the form's zod schema (loaded on first
 * use), delivery through the outbox, and the draft saved on every change and restored on return.
 */
export function useMailForm<T extends Record<string, string>>({
  form,
  empty,
  lang,
  options,
}: {
  form: FormKind
  empty: T
  lang: string
  options: PublicMailOptions
}) {
  const [resolver] = useState(() =>
    lazyZodResolver<T>(form === 'contact' ? 'contactFields' : 'newsletterFields'),
  )
  const methods = useForm<T>({
    resolver,
    mode: 'onTouched',
    defaultValues: empty as DefaultValues<T>,
  })
  const { reset, subscribe } = methods
  const delivery = useMailDelivery({
    form,
    lang,
    options,
    restore: (fields) => reset({ ...empty, ...fields }),
  })
  const { saveDraft, preload: preloadDelivery } = delivery
  /** On the first focus in the form: the sending code and the schemas, both loaded on demand. */
  const preload = useCallback(() => {
    resolver.prepare()
    preloadDelivery()
  }, [resolver, preloadDelivery])

  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        // A form as it started (a subject already chosen) is no draft: nothing kept.
        callback: ({ values }) => {
          const fields = values as Record<string, string>
          const untouched = Object.keys(fields).every((k) => (fields[k] ?? '') === (empty[k] ?? ''))
          saveDraft(untouched ? {} : fields)
        },
      }),
    [subscribe, saveDraft, empty],
  )

  return { ...methods, ...delivery, preload }
}
