import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkForms, FORM_WORDS } from '@services/content-api/forms-check'
import { checkFolder } from '@services/content-api/validate'

// `content:check` and the forms' words: every word a form says comes from its slice, so an empty
// one is a moment where the visitor hears nothing. Each is refused with the document, the slice
// and the field.

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the sample content with `file`'s first slice of `type` changed by `change`. */
function sampleWith(
  file: string,
  type: string,
  change: (primary: Record<string, unknown>) => void,
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'facet-forms-'))
  dirs.push(dir)
  cpSync('content', dir, { recursive: true })
  const at = path.join(dir, file)
  const doc = JSON.parse(readFileSync(at, 'utf8'))
  const index = doc.data.slices.findIndex((s: { slice_type: string }) => s.slice_type === type)
  change(doc.data.slices[index].primary)
  writeFileSync(at, JSON.stringify(doc))
  return { dir, index }
}

function report(dir: string) {
  const { store, releases } = checkFolder(dir, '.')
  return checkForms([store, ...releases]).map(
    (problem) => `${problem.file} ${problem.path}: ${problem.message}`,
  )
}

describe('content:check and the forms’ words', () => {
  it('passes the sample content, whose every form has all its words in both languages', () => {
    expect(report('content')).toEqual([])
  })

  it('names the document, the slice and each empty or missing field of a contact form', () => {
    const file = path.join('documents', 'page', 'about', 'fr-fr.json')
    const { dir, index } = sampleWith(file, 'contact_form', (primary) => {
      primary.error_email = '  '
      delete primary.trap_message
      delete primary.message_label
    })
    const at = `documents/page/about/fr-fr.json $.data.slices[${index}].primary`
    expect(report(dir)).toEqual([
      `${at}.message_label: (slice contact_form) is empty: the form would show a field with no name. Write it in the page's language`,
      `${at}.error_email: (slice contact_form) is empty: the form would show an error with no words read out. Write it in the page's language`,
      `${at}.trap_message: (slice contact_form) is empty: the form would show a state of the send with nothing shown or read out. Write it in the page's language`,
    ])
  })

  it('asks a newsletter for its own words only, not a contact form’s', () => {
    const file = path.join('documents', 'journal_index', 'journal_index', 'en-us.json')
    const { dir, index } = sampleWith(file, 'newsletter', (primary) => {
      primary.sending_message = ''
    })
    expect(FORM_WORDS.newsletter).not.toContain('message_label')
    expect(report(dir)).toEqual([
      `documents/journal_index/journal_index/en-us.json $.data.slices[${index}].primary.sending_message: (slice newsletter) is empty: the form would show a state of the send with nothing shown or read out. Write it in the page's language`,
    ])
  })
})
