import { SwitcherSlot } from '@/components/SwitcherSlot'

/** Where no document is on screen (the 404): the switcher goes to each language's home. */
export default async function DefaultSwitcher({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params
  return <SwitcherSlot lang={lang} />
}
