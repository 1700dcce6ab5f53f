// missed_mail and the reads behind missed-message email: who may be due an email about which
// channel, a channel's recent messages, and what was last mailed. Whether one is due is core/missedMail.ts's to
// decide; this only reads and writes rows.
import type { MissedCandidate, MissedMailState } from '../../core/missedMail';
import type { MessageCursor } from '../../core/messages';
import type { Db } from '../db/database';

interface CandidateRow {
  uid: string;
  channel_id: string;
}

interface MessageRow {
  id: string;
  sender_id: string;
  sender_name: string;
  text: string;
  created_at: number;
  deleted_at: number | null;
  attachment: string | null;
}

export interface MailRecipient {
  email: string;
  /** Whether the address was confirmed (users.email_verified_at). */
  verified: boolean;
}

export class MissedMailRepo {
  private readonly candidateRows;
  private readonly messageRows;
  private readonly stateRow;
  private readonly upsert;
  private readonly recipientRow;

  constructor(db: Db) {
    // Everyone in a channel (its owner and members) whose settings mention 'email' and whose address is
    // confirmed, with a message by someone else, not deleted, posted in [since, dueBy]. The settings are read
    // again and decided on in core; the LIKE only keeps the scan small.
    this.candidateRows = db.prepare<[number, number], CandidateRow>(
      `SELECT p.uid, p.channel_id FROM (
         SELECT uid, channel_id FROM channel_members
         UNION SELECT owner_id AS uid, id AS channel_id FROM channels
       ) p
       JOIN users u ON u.uid = p.uid
       WHERE u.email_verified_at IS NOT NULL AND u.notification_settings LIKE '%"email"%'
         AND EXISTS (
           SELECT 1 FROM messages m
           WHERE m.channel_id = p.channel_id AND m.created_at > ? AND m.created_at <= ?
             AND m.deleted_at IS NULL AND m.sender_id <> p.uid
         )
       ORDER BY p.uid, p.channel_id`,
    );
    this.messageRows = db.prepare<[string, number], MessageRow>(
      `SELECT id, sender_id, sender_name, text, created_at, deleted_at, attachment FROM messages
       WHERE channel_id = ? AND created_at > ? ORDER BY created_at, id`,
    );
    this.stateRow = db.prepare<
      [string, string],
      { covered_at: number; covered_id: string; last_sent_at: number | null }
    >('SELECT covered_at, covered_id, last_sent_at FROM missed_mail WHERE uid = ? AND channel_id = ?');
    this.upsert = db.prepare<[string, string, number, string, number | null]>(
      `INSERT INTO missed_mail (uid, channel_id, covered_at, covered_id, last_sent_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (uid, channel_id) DO UPDATE SET covered_at = excluded.covered_at,
         covered_id = excluded.covered_id, last_sent_at = excluded.last_sent_at`,
    );
    this.recipientRow = db.prepare<[string], { email: string; email_verified_at: number | null }>(
      'SELECT email, email_verified_at FROM users WHERE uid = ?',
    );
  }

  /** (person, channel) pairs that may be due an email about messages posted in (since, dueBy]. */
  candidates(since: number, dueBy: number): { uid: string; channelId: string }[] {
    return this.candidateRows.all(since, dueBy).map((r) => ({ uid: r.uid, channelId: r.channel_id }));
  }

  /** The channel's messages posted after `since`, oldest first. */
  messagesAfter(channelId: string, since: number): MissedCandidate[] {
    return this.messageRows.all(channelId, since).map((r) => ({
      id: r.id,
      senderId: r.sender_id,
      senderName: r.sender_name,
      text: r.text,
      createdAt: r.created_at,
      deleted: r.deleted_at !== null,
      hasAttachment: r.attachment !== null,
    }));
  }

  state(uid: string, channelId: string): MissedMailState | null {
    const row = this.stateRow.get(uid, channelId);
    if (!row) return null;
    return {
      coveredUpTo: { createdAt: row.covered_at, id: row.covered_id },
      lastSentAt: row.last_sent_at,
    };
  }

  put(uid: string, channelId: string, coveredUpTo: MessageCursor, lastSentAt: number | null): void {
    this.upsert.run(uid, channelId, coveredUpTo.createdAt, coveredUpTo.id, lastSentAt);
  }

  /** The account's address and whether it is confirmed; null once the account is gone. */
  recipient(uid: string): MailRecipient | null {
    const row = this.recipientRow.get(uid);
    return row ? { email: row.email, verified: row.email_verified_at !== null } : null;
  }
}
