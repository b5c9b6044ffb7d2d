import { SwitcherSlot } from '@/components/SwitcherSlot'
import { getJournalIndex } from '@/lib/content/queries'

/** The journal index's language switcher. */
export default async function JournalSwitcher({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params
  return <SwitcherSlot lang={lang} doc={await getJournalIndex(lang)} />
}
