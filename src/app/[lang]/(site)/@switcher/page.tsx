import { SwitcherSlot } from '@/components/SwitcherSlot'
import { getPage } from '@/lib/content/queries'

/** The home page's language switcher. */
export default async function HomeSwitcher({ params }: { params: Promise<{ lang: string }> }) {
  const { lang } = await params
  return <SwitcherSlot lang={lang} doc={await getPage(lang, 'home')} />
}
