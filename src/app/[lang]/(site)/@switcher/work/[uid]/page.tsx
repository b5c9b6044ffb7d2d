import { SwitcherSlot } from '@/components/SwitcherSlot'
import { getProject } from '@/lib/content/queries'

/** A project's language switcher. */
export default async function ProjectSwitcher({
  params,
}: {
  params: Promise<{ lang: string; uid: string }>
}) {
  const { lang, uid } = await params
  return <SwitcherSlot lang={lang} doc={await getProject(lang, uid)} />
}
