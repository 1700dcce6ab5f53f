// attachments: one row per uploaded file (migrations 007, 020): its channel, uploader, the message that carries it once
// sent, and what core/attachments.ts knows of it. The bytes are in the data folder (server/services/attachments.ts).
import type { Attachment, AttachmentKind, AttachmentType } from '../../core/attachments';
import type { Db } from '../db/database';

interface AttachmentRow {
  id: string;
  channel_id: string;
  uploader_id: string;
  message_id: string | null;
  name: string;
  kind: AttachmentKind;
  content_type: AttachmentType;
  size: number;
  width: number | null;
  height: number | null;
  created_at: number;
}

export interface StoredAttachment {
  attachment: Attachment;
  channelId: string;
  uploaderId: string;
  messageId: string | null;
  createdAt: number;
}

const toStored = (row: AttachmentRow): StoredAttachment => ({
  attachment: {
    id: row.id,
    kind: row.kind,
    name: row.name,
    contentType: row.content_type,
    size: row.size,
    ...(row.width !== null && row.height !== null ? { width: row.width, height: row.height } : {}),
  },
  channelId: row.channel_id,
  uploaderId: row.uploader_id,
  messageId: row.message_id,
  createdAt: row.created_at,
});

export class AttachmentsRepo {
  private readonly insertRow;
  private readonly byId;
  private readonly byMessage;
  private readonly claimRow;
  private readonly deleteRow;
  private readonly unsent;
  private readonly ofChannel;
  private readonly bytesOfRow;

  constructor(db: Db) {
    this.insertRow = db.prepare(
      `INSERT INTO attachments
         (id, channel_id, uploader_id, message_id, name, kind, content_type, size, width, height, created_at)
       VALUES (@id, @channelId, @uploaderId, NULL, @name, @kind, @contentType, @size, @width, @height, @createdAt)`,
    );
    this.byId = db.prepare<[string], AttachmentRow>('SELECT * FROM attachments WHERE id = ?');
    this.byMessage = db.prepare<[string], AttachmentRow>('SELECT * FROM attachments WHERE message_id = ?');
    this.claimRow = db.prepare<[string, string]>(
      'UPDATE attachments SET message_id = ? WHERE id = ? AND message_id IS NULL',
    );
    this.deleteRow = db.prepare<[string]>('DELETE FROM attachments WHERE id = ?');
    this.ofChannel = db.prepare<[string], { id: string }>('SELECT id FROM attachments WHERE channel_id = ?');
    this.bytesOfRow = db.prepare<[string], { bytes: number }>(
      'SELECT COALESCE(SUM(size), 0) AS bytes FROM attachments WHERE uploader_id = ?',
    );
    this.unsent = db.prepare<[number], { id: string }>(
      'SELECT id FROM attachments WHERE message_id IS NULL AND created_at < ?',
    );
  }

  /** The ids of every file of a channel (sent or not), whose bytes go when the channel is deleted. */
  idsInChannel(channelId: string): string[] {
    return this.ofChannel.all(channelId).map((row) => row.id);
  }

  insert(input: { attachment: Attachment; channelId: string; uploaderId: string; createdAt: number }): void {
    const { attachment } = input;
    this.insertRow.run({
      id: attachment.id,
      channelId: input.channelId,
      uploaderId: input.uploaderId,
      name: attachment.name,
      kind: attachment.kind,
      contentType: attachment.contentType,
      size: attachment.size,
      width: attachment.width ?? null,
      height: attachment.height ?? null,
      createdAt: input.createdAt,
    });
  }

  get(id: string): StoredAttachment | null {
    const row = this.byId.get(id);
    return row ? toStored(row) : null;
  }

  /** The files a message carries (none, or up to core/attachments.ts ATTACHMENT_COUNT_MAX). */
  ofMessage(messageId: string): StoredAttachment[] {
    return this.byMessage.all(messageId).map(toStored);
  }

  /** Ties an unsent attachment to its message; false when it was already sent. */
  claim(id: string, messageId: string): boolean {
    return this.claimRow.run(messageId, id).changes === 1;
  }

  delete(id: string): void {
    this.deleteRow.run(id);
  }

  /** What the person's files take up, sent and unsent (core/attachments.ts ATTACHMENT_QUOTA_BYTES). */
  bytesOf(uploaderId: string): number {
    return this.bytesOfRow.get(uploaderId)?.bytes ?? 0;
  }

  /** Attachments uploaded before `time` and never sent. */
  unsentBefore(time: number): string[] {
    return this.unsent.all(time).map((row) => row.id);
  }
}
