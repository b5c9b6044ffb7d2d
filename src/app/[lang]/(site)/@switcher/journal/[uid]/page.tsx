import { SwitcherSlot } from '@/components/SwitcherSlot'
import { getPost } from '@/lib/content/queries'

/** A post's language switcher. */
export default async function PostSwitcher({
  params,
}: {
  params: Promise<{ lang: string; uid: string }>
}) {
  const { lang, uid } = await params
  return <SwitcherSlot lang={lang} doc={await getPost(lang, uid)} />
}
