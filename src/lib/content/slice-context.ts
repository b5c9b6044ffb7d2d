import type { SceneLook } from '@rules/look'

/** What a page hands its slices through the SliceZone's `context`. */
export type SliceContext = {
  /** The page's title: the first slice, when it is a hero, shows it as the h1. */
  title?: string | null
  /** The page's language, for dates and queries. */
  lang: string
  /**
   * The site's 3D look (the settings document's environment, exposure, shadow), which a model
   * slice's own fields override (`sliceContextFor` reads it).
   */
  look: SceneLook
}

/** Reads the SliceZone context with a sentence when a page forgot to pass it. */
export function sliceContext(context: unknown): SliceContext {
  if (
    !context ||
    typeof context !== 'object' ||
    typeof (context as SliceContext).lang !== 'string' ||
    !(context as SliceContext).look
  )
    throw new Error(
      'A slice needs the SliceZone context { lang, title, look }: pass context={await sliceContextFor(lang, title)} to <Slices>.',
    )
  return context as SliceContext
}
