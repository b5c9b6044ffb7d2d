import fc from 'fast-check'
import PostalMime from 'postal-mime'
import { describe, expect, test } from 'vitest'
import { contactFields, contactMessage, LIMITS, newsletterFields } from '@/forms/schemas'
import { offlineCheck } from '@/forms/resolver'
import { composeMessage } from '@services/mail-api/outbox'
import { parseTemplate, renderTemplate } from '@services/mail-api/templates'
import { readFileSync } from 'node:fs'

const LINE_BREAKS = /[\r\n\u2028\u2029\u0085]/
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/

/** Strings that stress the schemas: Unicode, CRLF, HTML, header syntax, long runs. */
const nasty = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 6000 }),
  fc
    .array(
      fc.constantFrom(
        'a',
        'é',
        '😀',
        ' ',
        '\r',
        '\n',
        '\r\n',
        '\t',
        '\u2028',
        '<b>',
        '&',
        '"',
        ':',
        'Bcc: x@y.z',
        '@',
        '.',
        '\u0000',
        '\u0085',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join('')),
)

const emailish = fc.oneof(
  fc.emailAddress(),
  fc
    .tuple(fc.emailAddress(), fc.constantFrom('\r\nBcc: a@b.c', '\n', '\u2028', ' ', ''))
    .map(([a, b]) => a + b),
  nasty,
)

describe('contact schema', () => {
  test('accepts a realistic message, trimmed', () => {
    const parsed = contactFields.parse({
      name: '  Zoë Ñandú ',
      email: 'zoe@example.com',
      subject: 'Un projet 😀 <b>',
      message: 'Line one\r\nline two\n\ttabbed',
    })
    expect(parsed.name).toBe('Zoë Ñandú')
  })

  test('reports codes the CMS has words for', () => {
    const result = contactFields.safeParse({
      name: '',
      email: 'nope',
      subject: 'a\nb',
      message: 'x'.repeat(LIMITS.message + 1),
    })
    expect(result.success).toBe(false)
    const codes = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]))
    expect(codes).toEqual({
      name: 'required',
      email: 'email',
      subject: 'characters',
      message: 'too_long',
    })
  })

  test('nothing it accepts is out of bounds or can break a header line', () => {
    fc.assert(
      fc.property(nasty, emailish, nasty, nasty, (name, email, subject, message) => {
        const result = contactFields.safeParse({ name, email, subject, message })
        if (!result.success) return
        const v = result.data
        expect(v.name.length).toBeGreaterThan(0)
        expect(v.name.length).toBeLessThanOrEqual(LIMITS.name)
        expect(v.subject.length).toBeLessThanOrEqual(LIMITS.subject)
        expect(v.email.length).toBeLessThanOrEqual(LIMITS.email)
        expect(v.message.length).toBeLessThanOrEqual(LIMITS.message)
        for (const oneLine of [v.name, v.email, v.subject]) {
          expect(oneLine).not.toMatch(LINE_BREAKS)
          expect(oneLine).not.toMatch(CONTROLS)
        }
        expect(v.email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)
        expect(v.message).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/)
      }),
      { numRuns: 2000 },
    )
  })

  test('refuses every value with a line break in a one-line field', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('\r', '\n', '\r\n', '\u2028', '\u2029', '\u0085'),
        fc.string({ maxLength: 20 }),
        fc.constantFrom('name', 'subject', 'email'),
        (before, lineBreak, after, field) => {
          const fields = { name: 'Ann', email: 'ann@example.com', subject: 'Hi', message: 'Hello' }
          const value =
            field === 'email'
              ? `ann${lineBreak}x@example.com${after}`
              : `${before}x${lineBreak}x${after}`
          const result = contactFields.safeParse({ ...fields, [field]: value })
          expect(result.success).toBe(false)
        },
      ),
    )
  })
})

describe('newsletter schema', () => {
  test('accepts only a one-line e-mail address within bounds', () => {
    fc.assert(
      fc.property(emailish, (email) => {
        const result = newsletterFields.safeParse({ email })
        if (!result.success) return
        expect(result.data.email).not.toMatch(CONTROLS)
        expect(result.data.email.length).toBeLessThanOrEqual(LIMITS.email)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('no header injection end to end', () => {
  const template = parseTemplate(
    'contact.json',
    readFileSync('content/email-templates/contact.json', 'utf8'),
  )

  test('whatever the schema accepts, the .eml has exactly the template’s headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        nasty,
        emailish,
        nasty,
        fc.string({ maxLength: 200 }),
        async (name, email, subject, message) => {
          const result = contactMessage.safeParse({
            name,
            email,
            subject,
            message,
            message_id: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            lang: 'en-us',
          })
          if (!result.success) return
          const params = result.data as unknown as Record<string, string>
          const { raw } = await composeMessage(
            params.message_id,
            renderTemplate(template, params),
            {
              template: 'contact',
            },
          )
          const email_ = await PostalMime.parse(raw)
          const keys = new Set(email_.headers.map((h) => h.key))
          expect(keys.has('bcc')).toBe(false)
          expect(keys.has('cc')).toBe(false)
          expect(email_.to?.map((a) => a.address)).toEqual(['hello@facet.studio'])
          expect(email_.subject).toBe(`[Contact] ${params.subject}`)
          expect(email_.replyTo?.[0].address).toBe(params.email)
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe('the offline check (when the schemas cannot be loaded)', () => {
  // Mostly plausible input, so that many runs pass the schema; the rest is hostile.
  const text = fc.oneof({ arbitrary: fc.lorem({ maxCount: 8 }), weight: 4 }, nasty)
  const fieldsArb = fc.record({
    name: text,
    email: fc.oneof(
      {
        arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9_+-]{0,15}@[a-z0-9]{1,10}\.[a-z]{2,6}$/),
        weight: 4,
      },
      nasty,
    ),
    subject: text,
    message: text,
  })

  test('passes every message the full schema accepts', () => {
    let accepted = 0
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        if (!contactFields.safeParse(fields).success) return
        accepted++
        expect(offlineCheck(fields)).toEqual({ values: fields, errors: {} })
      }),
      { numRuns: 600 },
    )
    expect(accepted).toBeGreaterThan(10)
  })

  test('refuses an empty or over-long field with the schema’s own code, naming the field', () => {
    const valid = { name: 'Zoë', email: 'zoe@example.com', subject: 'Hello', message: 'Hi' }
    expect(offlineCheck({ ...valid, subject: '  ' }).errors).toEqual({
      subject: { type: 'required', message: 'required' },
    })
    expect(offlineCheck({ ...valid, message: 'x'.repeat(LIMITS.message + 1) }).errors).toEqual({
      message: { type: 'too_long', message: 'too_long' },
    })
    for (const field of Object.keys(valid) as (keyof typeof valid)[]) {
      const fields = { ...valid, [field]: '' }
      const schemaCodes = contactFields.safeParse(fields).error?.issues.map((i) => i.message)
      expect(schemaCodes).toEqual(['required'])
      expect(offlineCheck(fields).errors).toEqual({
        [field]: { type: 'required', message: 'required' },
      })
    }
  })
})
