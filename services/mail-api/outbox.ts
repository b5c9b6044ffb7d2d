import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { RenderedMessage } from './templates'

/**
 * The outbox: one RFC 5322 `.eml` file per accepted message. The first copy of a message id is
 * `<id>.eml`; EmailJS does not deduplicate, so a repeated id is stored again, as `<id>.2.eml`,
 * `<id>.3.eml`… Each file is written under a temporary name and then linked to its final name,
 * which fails if that name exists: a reader never sees half a message, and two copies written at
 * once never overwrite each other.
 */

/** A message id the outbox accepts as a file name: letters, digits and dashes (a UUID fits). */
export const MESSAGE_ID = /^[A-Za-z0-9-]{8,64}$/

/** An attachment from a send-form request. */
export type OutboxAttachment = { filename: string; contentType: string; content: Buffer }

/** Builds the RFC 5322 message (CRLF line ends) with nodemailer's composer. */
export async function composeMessage(
  id: string,
  message: RenderedMessage,
  extra: { template: string; attachments?: OutboxAttachment[]; date?: Date },
): Promise<{ raw: Buffer; envelope: { from: string; to: string[] } }> {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  })
  const info = await composer.sendMail({
    ...message,
    date: extra.date ?? new Date(),
    messageId: `<${id}@facet.local>`,
    headers: { 'X-Facet-Message-Id': id, 'X-Facet-Template': extra.template },
    attachments: extra.attachments,
    // Refuse to read local files or URLs named in the message: content comes only from the request.
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  const raw = info.message as Buffer
  return { raw, envelope: { from: info.envelope.from || '', to: info.envelope.to } }
}

/** A message file in the outbox, for the viewer. */
export type OutboxEntry = {
  /** The message id (the file name without its copy number). */
  id: string
  /** The file's name, unique in the outbox. */
  name: string
  file: string
  receivedAt: Date
  raw: Buffer
}

/** `<id>.eml` or `<id>.<copy>.eml`. */
const FILE_NAME = /^([A-Za-z0-9-]{8,64})(?:\.(\d+))?\.eml$/

export class Outbox {
  private readonly inFlight = new Set<string>()

  constructor(readonly dir: string) {}

  private fileOf(id: string, copy: number): string {
    return path.join(this.dir, copy === 1 ? `${id}.eml` : `${id}.${copy}.eml`)
  }

  /** True when a message with this id is stored (or being stored). */
  has(id: string): boolean {
    return this.inFlight.has(id) || existsSync(this.fileOf(id, 1))
  }

  /**
   * Stores `raw` as the next free copy of `id` and returns its file. Write to a temporary file,
   * then link it to the final name (`link` refuses an existing name, where `rename` would replace
   * it), then remove the temporary name.
   */
  async store(id: string, raw: Buffer): Promise<string> {
    if (!MESSAGE_ID.test(id)) throw new Error(`invalid message id "${id}"`)
    this.inFlight.add(id)
    const temp = path.join(this.dir, `.${id}.${randomUUID()}.tmp`)
    try {
      await mkdir(this.dir, { recursive: true })
      await writeFile(temp, raw, { flag: 'wx' })
      return await this.linkAsNextCopy(temp, id)
    } finally {
      await rm(temp, { force: true })
      this.inFlight.delete(id)
    }
  }

  private async linkAsNextCopy(temp: string, id: string): Promise<string> {
    for (let copy = 1; ; copy++) {
      const file = this.fileOf(id, copy)
      try {
        await link(temp, file)
        return file
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
    }
  }

  /** Removes a file `store` returned (its relay failed: the outbox shows what was sent). */
  async remove(file: string): Promise<void> {
    await rm(file, { force: true })
  }

  /** Every stored message, newest first. */
  async list(): Promise<OutboxEntry[]> {
    if (!existsSync(this.dir)) return []
    const names = (await readdir(this.dir)).filter((n) => FILE_NAME.test(n))
    const entries = await Promise.all(
      names.map(async (name) => {
        const file = path.join(this.dir, name)
        const [info, raw] = await Promise.all([stat(file), readFile(file)])
        const id = FILE_NAME.exec(name)![1]
        return { id, name, file, receivedAt: info.mtime, raw }
      }),
    )
    return entries.sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
  }
}
