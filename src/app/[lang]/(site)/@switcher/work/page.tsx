import { SwitcherSlot } from '@/components/SwitcherSlot'
import { getWorkIndex } from '@/lib/content/queries'

/** The work index's language switcher. */
export default async function WorkSwitcher({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params
  return <SwitcherSlot lang={lang} doc={await getWorkIndex(lang)} />
}
