// What leaving reads and writes across tables: a person's messages, invitations and channels
// for "Download my data", and for "Delete my account" the rewrite of what stays (messages, invitations,
// attachments, private consultations) to "a former member" before the user row goes, taking with it (ON DELETE
// CASCADE) refresh tokens, push tokens, memberships, offers received, pending counts, read marks and mutes.
import type { Db } from '../db/database';
import { FORMER_MEMBER_ID, FORMER_MEMBER_NAME } from '../../core/leaving';

interface OwnMessageRow {
  id: string;
  channel_id: string;
}

export class LeavingRepo {
  private readonly ownMessages;
  private readonly ownedTitles;
  private readonly sentInvitations;
  private readonly receivedInvitations;
  private readonly families;
  private readonly joinedPrivate;
  private readonly ownedPrivate;
  private readonly handPrivate;
  private readonly renameMessages;
  private readonly reassignAttachments;
  private readonly unsentUploads;
  private readonly deleteUnsent;
  private readonly reassignAccepted;
  private readonly reassignIssued;
  private readonly renamePrivate;
  private readonly dropQueuedPushes;
  private readonly deleteUser;
  private readonly practiceRewrites;
  private readonly dropOperations;

  constructor(db: Db) {
    this.ownMessages = db.prepare<[string], OwnMessageRow>(
      'SELECT id, channel_id FROM messages WHERE sender_id = ? ORDER BY created_at, id',
    );
    // A private consultation is no channel of theirs to manage or hand over: it stays with its client.
    this.ownedTitles = db.prepare<[string], { title: string }>(
      "SELECT title FROM channels WHERE owner_id = ? AND kind <> 'private' ORDER BY created_at, id",
    );
    this.sentInvitations = db.prepare<[string], { id: string }>(
      'SELECT id FROM invitations WHERE consultant_id = ? ORDER BY created_at DESC, id',
    );
    this.receivedInvitations = db.prepare<[string, string], { id: string }>(
      `SELECT id FROM invitations WHERE accepted_by = ? OR invitee_email = ?
       ORDER BY created_at DESC, id`,
    );
    this.families = db.prepare<[string], { family_id: string }>(
      'SELECT DISTINCT family_id FROM refresh_tokens WHERE uid = ?',
    );
    this.joinedPrivate = db.prepare<[string], { id: string; owner_id: string; names_json: string | null }>(
      `SELECT c.id, c.owner_id, c.names_json FROM channels c JOIN channel_members m ON m.channel_id = c.id
       WHERE m.uid = ? AND c.kind = 'private'`,
    );
    this.ownedPrivate = db.prepare<
      [string],
      { id: string; member: string | null; names_json: string | null }
    >(
      `SELECT c.id, (SELECT m.uid FROM channel_members m WHERE m.channel_id = c.id LIMIT 1) AS member, c.names_json
       FROM channels c WHERE c.owner_id = ? AND c.kind = 'private'`,
    );
    this.handPrivate = db.prepare<[string, string, string, number, string]>(
      'UPDATE channels SET owner_id = ?, title = ?, names_json = ?, archived_at = ? WHERE id = ?',
    );
    // A rename is a change of the message (the version stamp), so live subscribers and those catching
    // up after a reconnect get the new name, as they get an edit.
    this.renameMessages = db.prepare<[string, string, number, string, string]>(
      `UPDATE messages SET sender_id = ?, sender_name = ?, updated_at = ? WHERE sender_id = ? AND channel_id = ?`,
    );
    this.reassignAttachments = db.prepare<[string, string]>(
      'UPDATE attachments SET uploader_id = ? WHERE uploader_id = ?',
    );
    this.unsentUploads = db.prepare<[string], { id: string }>(
      'SELECT id FROM attachments WHERE uploader_id = ? AND message_id IS NULL',
    );
    this.deleteUnsent = db.prepare<[string]>(
      'DELETE FROM attachments WHERE uploader_id = ? AND message_id IS NULL',
    );
    this.reassignAccepted = db.prepare<[string, string]>(
      // The address they were sent to goes too: it named the person (pending ones to the address stay: they
      // are the consultant's, and whoever registers the address next may take them).
      'UPDATE invitations SET accepted_by = ?, invitee_email = NULL WHERE accepted_by = ?',
    );
    // Invitations the person issued: the open ones can no longer be used (their consultant is gone).
    this.reassignIssued = db.prepare<[string, string]>(
      `UPDATE invitations SET consultant_id = ?,
         status = CASE WHEN status = 'pending' THEN 'expired' ELSE status END
       WHERE consultant_id = ?`,
    );
    this.renamePrivate = db.prepare<[string, string, string]>(
      'UPDATE channels SET title = ?, names_json = ? WHERE id = ?',
    );
    this.dropQueuedPushes = db.prepare<[string]>("DELETE FROM push_jobs WHERE uid = ? AND state = 'queued'");
    this.deleteUser = db.prepare<[string]>('DELETE FROM users WHERE uid = ?');
    // The practice (migration 011): bookings keep their place in the other person's history, under the former
    // member; a consultant's services stay (their bookings name them), archived; the operation ids they used go.
    this.practiceRewrites = [
      db.prepare<[string, string]>('UPDATE bookings SET client_id = ? WHERE client_id = ?'),
      db.prepare<[string, string]>('UPDATE bookings SET consultant_id = ? WHERE consultant_id = ?'),
      db.prepare<[string, string]>(
        `UPDATE services SET consultant_id = ?, status = 'archived' WHERE consultant_id = ?`,
      ),
      db.prepare<[string, string]>('UPDATE offers SET consultant_id = ? WHERE consultant_id = ?'),
    ];
    this.dropOperations = db.prepare<[string]>('DELETE FROM operations WHERE uid = ?');
  }

  /** The ids of the person's messages (with their channels), oldest first. */
  messagesOf(uid: string): OwnMessageRow[] {
    return this.ownMessages.all(uid);
  }

  /** The titles of the channels the person owns (private consultations are not theirs to hand over), oldest first. */
  ownedChannelTitles(uid: string): string[] {
    return this.ownedTitles.all(uid).map((row) => row.title);
  }

  invitationsSentBy(uid: string): string[] {
    return this.sentInvitations.all(uid).map((row) => row.id);
  }

  /** Invitations naming the person's (normalized) email, or accepted by them. */
  invitationsReceivedBy(uid: string, normalizedEmail: string): string[] {
    return this.receivedInvitations.all(uid, normalizedEmail).map((row) => row.id);
  }

  /** Every session (refresh-token family) of the person, to end their live streams. */
  sessionsOf(uid: string): string[] {
    return this.families.all(uid).map((row) => row.family_id);
  }

  /** The private consultations the person is the client of, with the names stored on them. */
  privateChannelsJoined(uid: string): Array<{ id: string; ownerId: string; names: Record<string, string> }> {
    return this.joinedPrivate.all(uid).map((row) => ({
      id: row.id,
      ownerId: row.owner_id,
      names: row.names_json === null ? {} : (JSON.parse(row.names_json) as Record<string, string>),
    }));
  }

  /** The private consultations the person is the consultant of, with their client and the names stored on them. */
  privateChannelsOwned(uid: string): Array<{ id: string; memberId: string; names: Record<string, string> }> {
    return this.ownedPrivate.all(uid).map((row) => ({
      id: row.id,
      memberId: row.member ?? '',
      names: row.names_json === null ? {} : (JSON.parse(row.names_json) as Record<string, string>),
    }));
  }

  handPrivateChannel(
    id: string,
    after: { ownerId: string; title: string; names: Record<string, string>; archivedAt: number },
  ): void {
    this.handPrivate.run(after.ownerId, after.title, JSON.stringify(after.names), after.archivedAt, id);
  }

  /** The person's messages in one channel become a former member's, stamped as changed at `at`. */
  renameMessagesIn(uid: string, channelId: string, at: number): void {
    this.renameMessages.run(FORMER_MEMBER_ID, FORMER_MEMBER_NAME, at, uid, channelId);
  }

  /**
   * The person's uploads no message took: their rows go (answered, so the caller removes the files after the
   * commit). Nothing would send them now, and they are nobody else's to keep.
   */
  dropUnsentUploads(uid: string): string[] {
    const ids = this.unsentUploads.all(uid).map((row) => row.id);
    this.deleteUnsent.run(uid);
    return ids;
  }

  /** What stays of the person in invitations and attachments (sent ones) names the former member instead. */
  reassignRecords(uid: string): void {
    this.reassignAttachments.run(FORMER_MEMBER_ID, uid);
    this.reassignAccepted.run(FORMER_MEMBER_ID, uid);
    this.reassignIssued.run(FORMER_MEMBER_ID, uid);
  }

  renamePrivateChannel(id: string, title: string, names: Record<string, string>): void {
    this.renamePrivate.run(title, JSON.stringify(names), id);
  }

  /** Pushes not sent yet to the person's devices (their tokens go with the row anyway). */
  dropQueuedPushesTo(uid: string): void {
    this.dropQueuedPushes.run(uid);
  }

  /** What stays of the person in bookings, services and offers names the former member instead. */
  reassignPractice(uid: string): void {
    for (const statement of this.practiceRewrites) statement.run(FORMER_MEMBER_ID, uid);
    this.dropOperations.run(uid);
  }

  /** Deletes the user row; the cascade removes everything that is only the person's. */
  deleteAccount(uid: string): boolean {
    return this.deleteUser.run(uid).changes === 1;
  }
}
