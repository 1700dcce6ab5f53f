// Invitation accept and activate as a state machine over InvitationStatus (ARCHITECTURE.md: both single-use,
// bound to the invitee, refusing expired invitations with a clear message). Every refusal is a QupmError whose
// status and reason the client turns into words.
//
//   pending ──accept (invitee, not expired)──▶ accepted ──activate (acceptor, not expired)──▶ activated
//      └─────────────── expiresAt passes ───────────────▶ expired (as read)
import { sameEmail } from './email';
import { QupmError } from './errors';
import { LIMITS } from './limits';
import { isWholeNumberIn } from './wholeNumber';
import type { Invitation, InvitationStatus } from './model';
import { invitationPrivatePair } from './privateChannels';
import type { PrivatePair } from './privateChannels';

/** Who accepts or activates: the signed-in caller's uid and email. */
export interface InvitationCaller {
  uid: string;
  email: string;
  /** false: the email is not confirmed, so no email-bound invitation is theirs (core/permissions.ts Caller). */
  emailVerified?: boolean;
}

/** An email-bound invitation names the caller's email, and that email is confirmed. */
function namesCaller(
  inviteeEmail: string,
  caller: Pick<InvitationCaller, 'email' | 'emailVerified'>,
): boolean {
  return caller.email !== '' && caller.emailVerified !== false && sameEmail(inviteeEmail, caller.email);
}

/** What an activation grants the caller. */
export interface Grant {
  passes: number;
  credits: number;
}

/** Passes or credits one invitation may grant: a whole number from 0 to LIMITS.invitationGrantMax. */
export function isInvitationGrant(value: unknown): value is number {
  return isWholeNumberIn(value, 0, LIMITS.invitationGrantMax);
}

export const INVITATION_MESSAGES = {
  expired: 'This invitation has expired. Ask your consultant for a new one.',
  used: 'This invitation has already been used.',
  notYours: 'This invitation is for another account. Sign in with the email it was sent to.',
  ownInvitation: 'This is your own invitation: share its link with the person you invite.',
  notAccepted: 'Accept this invitation before activating it.',
  revoked: 'This invitation was withdrawn by the consultant. Ask them for a new one.',
  emailNotVerified:
    'This invitation is for your email address, which is not confirmed yet. Open the confirmation link we sent you, then open this invitation again.',
} as const;

/** The status as the invitee sees it now: a pending invitation past its expiry is expired. */
export function effectiveInvitationStatus(
  invitation: Pick<Invitation, 'status' | 'expiresAt'>,
  now: number,
): InvitationStatus {
  if (invitation.status === 'pending' && invitation.expiresAt <= now) return 'expired';
  return invitation.status;
}

/** The invitation with its status as of `now`. */
export function withEffectiveStatus(invitation: Invitation, now: number): Invitation {
  const status = effectiveInvitationStatus(invitation, now);
  return status === invitation.status ? invitation : { ...invitation, status };
}

/**
 * Who may read an invitation: its consultant, an admin, whoever accepted it, and, while nobody has, anyone it
 * is addressed to (anyone with the link when it names no email).
 */
export function canReadInvitation(
  invitation: Pick<Invitation, 'consultantId' | 'inviteeEmail' | 'acceptedBy'>,
  caller: InvitationCaller & { isAdmin: boolean },
): boolean {
  if (caller.isAdmin || invitation.consultantId === caller.uid) return true;
  if (invitation.acceptedBy !== undefined) return invitation.acceptedBy === caller.uid;
  return invitation.inviteeEmail === undefined || namesCaller(invitation.inviteeEmail, caller);
}

/**
 * Reading an invitation: whoever may read it gets it; someone else gets why not. An invitation
 * somebody else already accepted says it was used (not "for another account": the link was the right one, it
 * has simply been spent); one addressed to another email says it is another account's.
 */
export function assertCanReadInvitation(
  invitation: Pick<Invitation, 'consultantId' | 'inviteeEmail' | 'acceptedBy'>,
  caller: InvitationCaller & { isAdmin: boolean },
): void {
  if (canReadInvitation(invitation, caller)) return;
  if (invitation.acceptedBy !== undefined) {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.used, 'invitation-used');
  }
  // Addressed to the caller's own, still unconfirmed address: say so (the invitation itself stays unread), so a
  // person who signed up from the link knows the one step left instead of reading "another account".
  if (
    invitation.inviteeEmail !== undefined &&
    caller.emailVerified === false &&
    sameEmail(invitation.inviteeEmail, caller.email)
  ) {
    throw new QupmError('PERMISSION_DENIED', INVITATION_MESSAGES.emailNotVerified, 'email-not-verified');
  }
  throw new QupmError('PERMISSION_DENIED', INVITATION_MESSAGES.notYours, 'invitation-not-yours');
}

/**
 * What anyone holding an invitation's link may see before signing in: who invites, to which
 * channel, what it grants, until when, and whether it can still be accepted. The link is the secret (a random
 * 20-character id), so this is what the consultant meant the invitee to read; nothing more leaves: not the
 * email it names (only whether it names one), not the channel's id, members or messages, not the consultant's id,
 * not who accepted it.
 */
export interface InvitationPreview {
  id: string;
  consultantName: string;
  channelTitle: string;
  passes: number;
  credits: number;
  expiresAt: number;
  /**
   * 'open' while it can be accepted, 'used' once someone accepted it, 'expired' past its date unaccepted,
   * 'withdrawn' when its consultant revoked it (core/housekeeping.ts).
   */
  state: 'open' | 'used' | 'expired' | 'withdrawn';
  /** Whether it is addressed to one email address (which one is not said). */
  forOneEmail: boolean;
}

export function toInvitationPreview(invitation: Invitation, now: number): InvitationPreview {
  const status = effectiveInvitationStatus(invitation, now);
  return {
    id: invitation.id,
    consultantName: invitation.consultantName,
    channelTitle: invitation.channelTitle,
    passes: invitation.passes,
    credits: invitation.credits,
    expiresAt: invitation.expiresAt,
    state:
      status === 'pending'
        ? 'open'
        : status === 'expired'
          ? 'expired'
          : status === 'revoked'
            ? 'withdrawn'
            : 'used',
    forOneEmail: invitation.inviteeEmail !== undefined,
  };
}

function refuseIfNotAddressedTo(invitation: Invitation, caller: InvitationCaller): void {
  if (invitation.consultantId === caller.uid) {
    throw new QupmError('PERMISSION_DENIED', INVITATION_MESSAGES.ownInvitation, 'invitation-not-yours');
  }
  if (invitation.inviteeEmail !== undefined && !namesCaller(invitation.inviteeEmail, caller)) {
    if (caller.emailVerified === false && sameEmail(invitation.inviteeEmail, caller.email)) {
      throw new QupmError('PERMISSION_DENIED', INVITATION_MESSAGES.emailNotVerified, 'email-not-verified');
    }
    throw new QupmError('PERMISSION_DENIED', INVITATION_MESSAGES.notYours, 'invitation-not-yours');
  }
}

/**
 * Accept: only a pending, unexpired invitation, by its invitee (inviteeEmail, if set, equals the caller's
 * email). Returns the accepted invitation; a second accept, by anyone, is FAILED_PRECONDITION 'invitation-used'.
 */
export function acceptInvitation(invitation: Invitation, caller: InvitationCaller, now: number): Invitation {
  refuseIfNotAddressedTo(invitation, caller);
  const status = effectiveInvitationStatus(invitation, now);
  if (status === 'revoked') {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.revoked, 'invitation-revoked');
  }
  if (status === 'accepted' || status === 'activated') {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.used, 'invitation-used');
  }
  if (status === 'expired') {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.expired, 'invitation-expired');
  }
  return { ...invitation, status: 'accepted', acceptedBy: caller.uid };
}

/**
 * Activate: only an accepted invitation, by the person who accepted it, before it expires. Returns the
 * activated invitation and what it grants; a second activation is FAILED_PRECONDITION 'invitation-used'.
 */
export function activateInvitation(
  invitation: Invitation,
  caller: InvitationCaller,
  now: number,
): { invitation: Invitation; grant: Grant } {
  refuseIfNotAddressedTo(invitation, caller);
  if (invitation.acceptedBy !== undefined && invitation.acceptedBy !== caller.uid) {
    throw new QupmError('PERMISSION_DENIED', INVITATION_MESSAGES.notYours, 'invitation-not-yours');
  }
  const status = effectiveInvitationStatus(invitation, now);
  if (status === 'revoked') {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.revoked, 'invitation-revoked');
  }
  if (status === 'activated') {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.used, 'invitation-used');
  }
  if (status === 'expired' || invitation.expiresAt <= now) {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.expired, 'invitation-expired');
  }
  if (status !== 'accepted' || invitation.acceptedBy === undefined) {
    throw new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.notAccepted, 'invitation-not-accepted');
  }
  return {
    invitation: { ...invitation, status: 'activated' },
    grant: { passes: invitation.passes, credits: invitation.credits },
  };
}

/**
 * The invitations a person sees waiting for them on their home screen: those naming their email that they can
 * still accept (pending, not expired), newest first (by creation, then id). An invitation for anyone with the
 * link names nobody, so it is nobody's until accepted.
 */
export function openInvitationsFor(
  list: ReadonlyArray<{ invitation: Invitation; createdAt: number }>,
  caller: Pick<InvitationCaller, 'email' | 'emailVerified'>,
  now: number,
): Invitation[] {
  return list
    .filter(
      ({ invitation }) =>
        invitation.inviteeEmail !== undefined &&
        namesCaller(invitation.inviteeEmail, caller) &&
        effectiveInvitationStatus(invitation, now) === 'pending',
    )
    .sort(
      (a, b) =>
        b.createdAt - a.createdAt ||
        (a.invitation.id < b.invitation.id ? -1 : a.invitation.id > b.invitation.id ? 1 : 0),
    )
    .map(({ invitation }) => invitation);
}

/**
 * What accepting an invitation does, planned once for both backends (server/services/invitations.ts, functions'
 * accept_invitation), which read the invitation, mark it accepted in a guarded write and perform the rest: join
 * its channel as a member, or, for a private consultation, open (or find) the consultation between its
 * consultant and the acceptor, never joining the channel.
 */
export type AcceptPlan =
  | { invitation: Invitation; join: { channelId: string } }
  | { invitation: Invitation; openPrivate: PrivatePair };

export function planAccept(invitation: Invitation, caller: InvitationCaller, now: number): AcceptPlan {
  const accepted = acceptInvitation(invitation, caller, now);
  if (accepted.privateConsultation === true) {
    return { invitation: accepted, openPrivate: invitationPrivatePair(accepted, caller.uid) };
  }
  return { invitation: accepted, join: { channelId: accepted.channelId } };
}
