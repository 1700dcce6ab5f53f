// Invitations: read, accept (joins the channel), activate (grants passes and credits). The decisions are
// core/invitations.ts; this runs them inside one write transaction each and streams what changed.
import { ERROR_WORDS, QupmError } from '../../core/errors';
import type { Invitation, NewInvitation, UserDoc } from '../../core/model';
import type { InvitationPreview } from '../../core/invitations';
import type { Caller } from '../../core/permissions';
import {
  activateInvitation as decideActivate,
  assertCanReadInvitation,
  INVITATION_MESSAGES,
  toInvitationPreview,
  openInvitationsFor,
  planAccept,
  withEffectiveStatus,
} from '../../core/invitations';
import { assertCanListInvitations, assertChannelOwner, CHANNEL_MESSAGES } from '../../core/channels';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { ServiceContext } from '../context';
import { publishUser } from './users';
import { publishChannel } from './channels';
import { ensurePrivateChannel } from './privateChannels';
import { LEDGER_IDS } from '../../core/ledger';
import { moveBalance } from './ledger';

const NO_SUCH_INVITATION = ERROR_WORDS.noSuchInvitation;
// Lost a race with a concurrent accept or activate between the read and the guarded update.
const usedError = (): QupmError =>
  new QupmError('FAILED_PRECONDITION', INVITATION_MESSAGES.used, 'invitation-used');

function load(ctx: ServiceContext, id: string): Invitation {
  const invitation = ctx.repos.invitations.get(id);
  if (!invitation) throw new QupmError('NOT_FOUND', NO_SUCH_INVITATION);
  return invitation;
}

/**
 * Tells whoever is signed in with the invitee's email that the invitations addressed to them changed (one was
 * created, accepted or activated); their home screen and invitation page read them again. An invitation for
 * anyone with the link is addressed to nobody.
 */
function publishInvitation(ctx: ServiceContext, invitation: Invitation): void {
  if (invitation.inviteeEmail === undefined) return;
  ctx.hub.publish({ emails: [invitation.inviteeEmail] }, { type: 'invitations', data: { changed: true } });
}

/** The invitations waiting for the caller: naming their email, still pending and unexpired, newest first. */
export function listMyInvitations(ctx: ServiceContext, caller: Caller): Invitation[] {
  return openInvitationsFor(ctx.repos.invitations.listPendingForInvitee(caller.email), caller, ctx.now());
}

/** The channel's owner invites someone (anyone with the link when no email is named), pending until expiresAt. */
export function createInvitation(ctx: ServiceContext, caller: Caller, input: NewInvitation): Invitation {
  const invitation = write(ctx.db, () => {
    const channel = ctx.repos.channels.get(input.channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    assertChannelOwner(channel, caller.uid);
    const id = newDocumentId();
    ctx.repos.invitations.insert({
      id,
      channelId: channel.id,
      consultantId: caller.uid,
      ...(input.inviteeEmail !== undefined ? { inviteeEmail: input.inviteeEmail } : {}),
      status: 'pending',
      passes: input.passes,
      credits: input.credits,
      expiresAt: input.expiresAt,
      createdAt: ctx.now(),
      ...(input.privateConsultation === true ? { privateConsultation: true } : {}),
    });
    return load(ctx, id);
  });
  publishInvitation(ctx, invitation);
  return invitation;
}

/** A channel's invitations for its owner (and admins), newest first, with their status as of now. */
export function listChannelInvitations(ctx: ServiceContext, caller: Caller, channelId: string): Invitation[] {
  const channel = ctx.repos.channels.get(channelId);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  assertCanListInvitations(channel, caller);
  const now = ctx.now();
  return ctx.repos.invitations
    .listForChannel(channelId)
    .map((invitation) => withEffectiveStatus(invitation, now));
}

export function readInvitation(ctx: ServiceContext, caller: Caller, id: string): Invitation {
  const invitation = load(ctx, id);
  assertCanReadInvitation(invitation, caller);
  return withEffectiveStatus(invitation, ctx.now());
}

/** What anyone with the link sees before signing in (core/invitations.ts toInvitationPreview says what is safe). */
export function previewInvitation(ctx: ServiceContext, id: string): InvitationPreview {
  return toInvitationPreview(load(ctx, id), ctx.now());
}

export function acceptInvitation(ctx: ServiceContext, caller: Caller, id: string): Invitation {
  const accepted = write(ctx.db, () => {
    const now = ctx.now();
    const plan = planAccept(load(ctx, id), caller, now);
    if (!ctx.repos.invitations.markAccepted(id, caller.uid, now)) throw usedError();
    if ('join' in plan) {
      ctx.repos.channels.addMember(plan.join.channelId, caller.uid, now);
      return plan.invitation;
    }
    // "For a private consultation": the invitee talks with the consultant alone, not in the channel.
    const opened = ensurePrivateChannel(ctx, plan.openPrivate, now);
    ctx.repos.invitations.setPrivateChannelId(id, opened.channel.id);
    return { ...plan.invitation, privateChannelId: opened.channel.id };
  });
  publishInvitation(ctx, accepted);
  const channel = ctx.repos.channels.get(accepted.privateChannelId ?? accepted.channelId);
  if (channel) publishChannel(ctx, channel);
  publishUser(ctx, caller.uid);
  return accepted;
}

export function activateInvitation(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): { invitation: Invitation; user: UserDoc } {
  const result = write(ctx.db, () => {
    const now = ctx.now();
    const { invitation, grant } = decideActivate(load(ctx, id), caller, now);
    if (!ctx.repos.invitations.markActivated(id, now)) throw usedError();
    // What it grants is a ledger entry (core/ledger.ts), in this transaction; the invitation is single-use, so its
    // id is the operation's.
    if (grant.credits > 0 || grant.passes > 0) {
      moveBalance(
        ctx,
        caller.uid,
        LEDGER_IDS.invitation(id),
        { kind: 'invitation', amount: { credits: grant.credits, passes: grant.passes }, invitationId: id },
        now,
      );
    }
    const user = ctx.repos.users.getDoc(caller.uid);
    if (!user) throw new QupmError('NOT_FOUND', ERROR_WORDS.accountGone);
    return { invitation, user };
  });
  publishInvitation(ctx, result.invitation);
  ctx.hub.publish({ uids: [caller.uid] }, { type: 'user', data: { user: result.user } });
  return result;
}
