import { createClient } from '@/prismicio'

/** The repository's languages, master first. */
export async function getLanguages(): Promise<{ ids: string[]; master: string }> {
  const repository = await createClient().getRepository()
  const master =
    repository.languages.find((l) => l.is_master)?.id ?? repository.languages[0]?.id ?? 'en-us'
  const ids = [master, ...repository.languages.map((l) => l.id).filter((id) => id !== master)]
  return { ids, master }
}
