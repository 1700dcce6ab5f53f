// The invitation callables the Firebase client calls (src/backend/firebase/callables.ts): read, accept (joins
// the channel), activate (grants passes and credits). core/invitations.ts decides; the repository runs each
// decision inside one transaction, so a race accepts or activates once, as the embedded server's guarded
// updates do (server/services/invitations.ts).
import { ERROR_WORDS, QupmError } from '../../../core/errors';
import type { Invitation, UserDoc } from '../../../core/model';
import type { Caller } from '../../../core/permissions';
import {
  activateInvitation as decideActivate,
  assertCanReadInvitation,
  openInvitationsFor,
  planAccept,
  toInvitationPreview,
  withEffectiveStatus,
} from '../../../core/invitations';
import type { InvitationPreview } from '../../../core/invitations';
import type {
  invitationCallablePayloads,
  InvitationCallableName,
  publicCallablePayloads,
} from '../../../core/schemas';
import { effectiveConIdAfterJoining, publicName } from '../../../core/users';
import { LEDGER_IDS, ledgerEntry } from '../../../core/ledger';
import { newPrivateChannel } from '../../../core/privateChannels';
import { privateChannelId } from '../privateChannelId';
import type { Handler, PublicHandler } from '../callable';
import type { InvitationState } from '../repository';
import { NO_SUCH_CHANNEL } from './callables';
import { newUserDoc } from './users';

export const NO_SUCH_INVITATION = ERROR_WORDS.noSuchInvitation;

interface InvitationResults {
  get_invitation: Invitation;
  accept_invitation: Invitation;
  activate_invitation: { invitation: Invitation; user: UserDoc };
  list_my_invitations: { invitations: Invitation[] };
}

function existing(state: InvitationState): Invitation {
  if (!state.invitation) throw new QupmError('NOT_FOUND', NO_SUCH_INVITATION);
  return state.invitation;
}

/** The caller's document, or the one the sign-up trigger is about to write (it may not have run yet). */
function userOf(state: InvitationState, caller: Caller): UserDoc {
  return state.user ?? newUserDoc({ uid: caller.uid, email: caller.email });
}

export const invitationCallables: {
  [N in InvitationCallableName]: Handler<(typeof invitationCallablePayloads)[N], InvitationResults[N]>;
} = {
  async get_invitation({ repo, now }, caller, { invitationId }) {
    const invitation = await repo.getInvitation(invitationId);
    if (!invitation) throw new QupmError('NOT_FOUND', NO_SUCH_INVITATION);
    assertCanReadInvitation(invitation, caller);
    return withEffectiveStatus(invitation, now());
  },

  async accept_invitation({ repo, now }, caller, { invitationId }) {
    const outcome = await repo.acceptInvitation(invitationId, caller.uid, (state) => {
      const at = now();
      const plan = planAccept(existing(state), caller, at);
      if (!state.channel) throw new QupmError('NOT_FOUND', NO_SUCH_CHANNEL);
      const user = userOf(state, caller);
      if ('join' in plan) {
        // effectiveConId: the consultant of the first channel joined (core/users.ts); an earlier one stays.
        return {
          invitation: plan.invitation,
          user: { ...user, effectiveConId: effectiveConIdAfterJoining(user, state.channel.ownerId, at) },
        };
      }
      // "For a private consultation": the invitee talks with the consultant alone, not in the channel.
      const pair = plan.openPrivate;
      const privateChannel = newPrivateChannel({
        id: privateChannelId(pair),
        pair,
        names: { [pair.ownerId]: plan.invitation.consultantName, [pair.memberId]: publicName(user) },
        createdAt: at,
      });
      return {
        invitation: { ...plan.invitation, privateChannelId: privateChannel.id },
        user: { ...user, effectiveConId: effectiveConIdAfterJoining(user, pair.ownerId, at) },
        privateChannel,
      };
    });
    return outcome.invitation;
  },

  /** As the embedded server's GET /api/invitations: pending, unexpired, naming the caller's email. */
  async list_my_invitations({ repo, now }, caller) {
    if (caller.email === '') return { invitations: [] };
    const pending = await repo.listPendingInvitationsFor(caller.email);
    return { invitations: openInvitationsFor(pending, caller, now()) };
  },

  async activate_invitation({ repo, now }, caller, { invitationId }) {
    return repo.activateInvitation(invitationId, caller.uid, (state) => {
      const at = now();
      const { invitation, grant } = decideActivate(existing(state), caller, at);
      const user = userOf(state, caller);
      if (grant.credits === 0 && grant.passes === 0) return { invitation, user };
      // The grant is a ledger entry (core/ledger.ts), keyed by the single-use invitation.
      const entry = ledgerEntry({
        id: LEDGER_IDS.invitation(invitationId),
        uid: caller.uid,
        move: { kind: 'invitation', amount: { credits: grant.credits, passes: grant.passes }, invitationId },
        before: { credits: user.credits, passes: user.passCount },
        createdAt: at,
      });
      return {
        invitation,
        user: { ...user, passCount: entry.balanceAfter.passes, credits: entry.balanceAfter.credits },
        ledger: entry,
      };
    });
  },
};

/** As the embedded server's GET /api/invitations/:id/preview: what anyone with the link may see, no session. */
export const previewInvitation: PublicHandler<
  (typeof publicCallablePayloads)['preview_invitation'],
  InvitationPreview
> = async ({ repo, now }, { invitationId }) => {
  const invitation = await repo.getInvitation(invitationId);
  if (!invitation) throw new QupmError('NOT_FOUND', NO_SUCH_INVITATION);
  return toInvitationPreview(invitation, now());
};
