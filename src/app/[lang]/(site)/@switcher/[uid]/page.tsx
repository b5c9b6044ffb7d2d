import { SwitcherSlot } from '@/components/SwitcherSlot'
import { getPage } from '@/lib/content/queries'

/** A page's language switcher. */
export default async function PageSwitcher({
  params,
}: {
  params: Promise<{ lang: string; uid: string }>
}) {
  const { lang, uid } = await params
  return <SwitcherSlot lang={lang} doc={await getPage(lang, uid)} />
}
