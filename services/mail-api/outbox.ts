import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'
import type { RenderedMessage } from './templates'

/**
 * The outbox: one RFC 5322 `.eml` file per accepted message, named after its message id, so a
 * repeated id is stored once. Each file is written under a temporary name and renamed, so a
 * reader never sees half a message.
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
export type OutboxEntry = { id: string; file: string; receivedAt: Date; raw: Buffer }

export class Outbox {
  private readonly inFlight = new Set<string>()

  constructor(readonly dir: string) {}

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.eml`)
  }

  /** True when a message with this id is stored (or being stored). */
  has(id: string): boolean {
    return this.inFlight.has(id) || existsSync(this.fileOf(id))
  }

  /**
   * Stores `raw` as `<id>.eml` unless that id is already stored. Returns false for a duplicate.
   * Write to a temporary file, then rename: the rename is atomic on one file system.
   */
  async store(id: string, raw: Buffer): Promise<boolean> {
    if (!MESSAGE_ID.test(id)) throw new Error(`invalid message id "${id}"`)
    if (this.has(id)) return false
    this.inFlight.add(id)
    const temp = path.join(this.dir, `.${id}.${randomUUID()}.tmp`)
    try {
      await mkdir(this.dir, { recursive: true })
      await writeFile(temp, raw, { flag: 'wx' })
      await rename(temp, this.fileOf(id))
      return true
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    } finally {
      this.inFlight.delete(id)
    }
  }

  /** Removes a stored message (used when its relay failed, so a retry stores it again). */
  async remove(id: string): Promise<void> {
    if (MESSAGE_ID.test(id)) await rm(this.fileOf(id), { force: true })
  }

  /** Every stored message, newest first. */
  async list(): Promise<OutboxEntry[]> {
    if (!existsSync(this.dir)) return []
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.eml') && !n.startsWith('.'))
    const entries = await Promise.all(
      names.map(async (name) => {
        const file = path.join(this.dir, name)
        const [info, raw] = await Promise.all([stat(file), readFile(file)])
        return { id: name.slice(0, -4), file, receivedAt: info.mtime, raw }
      }),
    )
    return entries.sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
  }
}
