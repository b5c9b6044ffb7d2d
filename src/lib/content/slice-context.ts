/** What a page hands its slices through the SliceZone's `context`. */
export type SliceContext = {
  /** The page's title: the first slice, when it is a hero, shows it as the h1. */
  title?: string | null
  /** The page's language, for dates and queries. */
  lang: string
}

/** Reads the SliceZone context with a sentence when a page forgot to pass it. */
export function sliceContext(context: unknown): SliceContext {
  if (!context || typeof context !== 'object' || typeof (context as SliceContext).lang !== 'string')
    throw new Error(
      'A slice needs the SliceZone context { lang, title }: pass context={{ lang, title }} to <SliceZone>.',
    )
  return context as SliceContext
}
