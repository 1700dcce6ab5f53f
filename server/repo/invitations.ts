// invitations: what a consultant offers someone for one of their channels.
import { normalizeEmail } from '../../core/email';
import type { Db } from '../db/database';
import type { Invitation, InvitationStatus } from '../../core/model';
import { publicName } from '../../core/users';

interface InvitationRow {
  id: string;
  channel_id: string;
  consultant_id: string;
  invitee_email: string | null;
  status: InvitationStatus;
  passes: number;
  credits: number;
  expires_at: number;
  accepted_by: string | null;
  created_at: number;
  private_consultation: number;
  private_channel_id: string | null;
  channel_title: string;
  /** NULL for the former member (migration 011), who issued what a departed consultant had issued. */
  consultant_email: string | null;
  consultant_nickname: string | null;
  consultant_display_name: string | null;
}

const toInvitation = (row: InvitationRow): Invitation => {
  const invitation: Invitation = {
    id: row.id,
    channelId: row.channel_id,
    channelTitle: row.channel_title,
    consultantId: row.consultant_id,
    consultantName: publicName({
      nickname: row.consultant_nickname,
      displayName: row.consultant_display_name,
      email: row.consultant_email ?? '',
    }),
    status: row.status,
    passes: row.passes,
    credits: row.credits,
    expiresAt: row.expires_at,
  };
  if (row.invitee_email !== null) invitation.inviteeEmail = row.invitee_email;
  if (row.accepted_by !== null) invitation.acceptedBy = row.accepted_by;
  if (row.private_consultation === 1) invitation.privateConsultation = true;
  if (row.private_channel_id !== null) invitation.privateChannelId = row.private_channel_id;
  return invitation;
};

export interface NewInvitation {
  id: string;
  channelId: string;
  consultantId: string;
  inviteeEmail?: string;
  status: InvitationStatus;
  passes: number;
  credits: number;
  expiresAt: number;
  acceptedBy?: string;
  createdAt: number;
  privateConsultation?: boolean;
}

export class InvitationsRepo {
  private readonly byId;
  private readonly insertRow;
  private readonly setAccepted;
  private readonly setActivated;
  private readonly setPrivateChannel;
  private readonly setRevoked;
  private readonly setConsultantRow;
  private readonly countPending;
  private readonly pendingFor;
  private readonly forChannel;
  private readonly forInvitee;

  constructor(db: Db) {
    const select = `SELECT i.*, c.title AS channel_title, u.email AS consultant_email,
         u.nickname AS consultant_nickname, u.display_name AS consultant_display_name
       FROM invitations i JOIN channels c ON c.id = i.channel_id JOIN users u ON u.uid = i.consultant_id`;
    this.byId = db.prepare<[string], InvitationRow>(`${select} WHERE i.id = ?`);
    // core/channels.ts sortInvitations: newest first, then id.
    this.forChannel = db.prepare<[string], InvitationRow>(
      `${select} WHERE i.channel_id = ? ORDER BY i.created_at DESC, i.id`,
    );
    this.forInvitee = db.prepare<[string], InvitationRow>(
      `${select} WHERE i.invitee_email = ? AND i.status = 'pending'`,
    );
    this.insertRow = db.prepare(
      `INSERT INTO invitations (id, channel_id, consultant_id, invitee_email, status, passes, credits,
         expires_at, accepted_by, accepted_at, activated_at, created_at, private_consultation)
       VALUES (@id, @channelId, @consultantId, @inviteeEmail, @status, @passes, @credits, @expiresAt,
         @acceptedBy, @acceptedAt, @activatedAt, @createdAt, @privateConsultation)`,
    );
    // The status guard makes each transition happen once even if two requests race past the checks.
    this.setAccepted = db.prepare<[string, number, string]>(
      `UPDATE invitations SET status = 'accepted', accepted_by = ?, accepted_at = ?
       WHERE id = ? AND status = 'pending'`,
    );
    this.setActivated = db.prepare<[number, string]>(
      `UPDATE invitations SET status = 'activated', activated_at = ? WHERE id = ? AND status = 'accepted'`,
    );
    this.setRevoked = db.prepare<[number, string]>(
      `UPDATE invitations SET status = 'revoked', revoked_at = ? WHERE id = ? AND status IN ('pending', 'expired')`,
    );
    // A channel handed over: its invitations nobody has accepted become the new consultant's.
    this.setConsultantRow = db.prepare<[string, string]>(
      `UPDATE invitations SET consultant_id = ? WHERE channel_id = ? AND status IN ('pending', 'expired')`,
    );
    this.countPending = db.prepare<[string, number], { n: number }>(
      `SELECT COUNT(*) AS n FROM invitations WHERE channel_id = ? AND status = 'pending' AND expires_at > ?`,
    );
    this.setPrivateChannel = db.prepare<[string, string]>(
      'UPDATE invitations SET private_channel_id = ? WHERE id = ?',
    );
    this.pendingFor = db.prepare<[string, number], { id: string }>(
      `SELECT id FROM invitations WHERE invitee_email = ? AND status = 'pending' AND expires_at > ?
       ORDER BY created_at`,
    );
  }

  get(id: string): Invitation | null {
    const row = this.byId.get(id);
    return row ? toInvitation(row) : null;
  }

  /** A channel's invitations, newest first (statuses as stored; the caller applies expiry). */
  listForChannel(channelId: string): Invitation[] {
    return this.forChannel.all(channelId).map(toInvitation);
  }

  /** The pending invitations naming `email` (expired ones too), with when each was created. */
  listPendingForInvitee(email: string): Array<{ invitation: Invitation; createdAt: number }> {
    return this.forInvitee
      .all(normalizeEmail(email))
      .map((row) => ({ invitation: toInvitation(row), createdAt: row.created_at }));
  }

  insert(invitation: NewInvitation): void {
    const used = invitation.status === 'accepted' || invitation.status === 'activated';
    this.insertRow.run({
      ...invitation,
      inviteeEmail: invitation.inviteeEmail ?? null,
      acceptedBy: invitation.acceptedBy ?? null,
      acceptedAt: used ? invitation.createdAt : null,
      activatedAt: invitation.status === 'activated' ? invitation.createdAt : null,
      privateConsultation: invitation.privateConsultation === true ? 1 : 0,
    });
  }

  markAccepted(id: string, uid: string, now: number): boolean {
    return this.setAccepted.run(uid, now, id).changes === 1;
  }

  /** Records the private consultation an accepted invitation opened. */
  setPrivateChannelId(id: string, channelId: string): void {
    this.setPrivateChannel.run(channelId, id);
  }

  /** Revokes an invitation nobody accepted; false when it was accepted meanwhile. */
  markRevoked(id: string, now: number): boolean {
    return this.setRevoked.run(now, id).changes === 1;
  }

  /** The channel's unaccepted invitations become `consultantId`'s (the channel was handed to them). */
  reassignOpen(channelId: string, consultantId: string): void {
    this.setConsultantRow.run(consultantId, channelId);
  }

  /** How many of a channel's invitations can still be accepted. */
  openCount(channelId: string, now: number): number {
    return this.countPending.get(channelId, now)?.n ?? 0;
  }

  markActivated(id: string, now: number): boolean {
    return this.setActivated.run(now, id).changes === 1;
  }

  /** Ids of the open invitations addressed to `email`. */
  pendingIdsFor(email: string, now: number): string[] {
    return this.pendingFor.all(email, now).map((row) => row.id);
  }
}
