import { notFound } from 'next/navigation'

/** Any other path under a language is that language's 404. */
export default function CatchAll(): never {
  notFound()
}
