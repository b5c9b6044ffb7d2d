/** A document's tags, as a list. */
export function Tags({ tags, label }: { tags: string[]; label?: string | null }) {
  if (tags.length === 0) return null
  return (
    <ul className="tags" aria-label={label ?? undefined}>
      {tags.map((tag) => (
        <li key={tag}>{tag}</li>
      ))}
    </ul>
  )
}
