'use client'
import dynamic from 'next/dynamic'

/**
 * @prismicio/next's SliceSimulator, rendered in the browser only. It decides whether it has
 * slices from `window.location` while rendering (its `state` parameter), which the server cannot
 * see: served with `?state=…` (a reload of the simulator, or Slice Machine framing it with its
 * state), the server's HTML has no slices and the browser's first render has them, and React
 * reports a hydration failure (an uncaught error, and Next's error overlay in development). The
 * simulator is a tool page for Slice Machine and the page builder, which render its slices after
 * its script has run anyway.
 */
export const ClientSliceSimulator = dynamic(
  () => import('@prismicio/next').then((m) => m.SliceSimulator),
  { ssr: false },
)
