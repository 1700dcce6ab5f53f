// Leaving: "Download my data" (GET /api/users/:uid/export) and "Delete my account"
// (DELETE /api/users/:uid {password}). Only the account itself, whoever else asks (an admin too) is refused the
// same way. Deleting checks the password, refuses a consultant who still owns channels, then in one write
// transaction hands what stays (messages, invitations, sent files) to "a former member", drops the uploads never
// sent (their files are removed after the commit) and deletes the user row,
// whose cascade takes sessions, push tokens, memberships, offers received, pending counts, read marks and mutes.
// After the commit every live stream of the account ends and the others' screens get the renamed messages.
import { QupmError } from '../../core/errors';
import { normalizeEmail } from '../../core/email';
import type { AccountExport } from '../../core/leaving';
import { planCancel } from '../../core/bookings';
import {
  LEAVING_MESSAGES,
  assertCanLeave,
  assertNoOpenSessions,
  buildAccountExport,
  privateChannelAfterLeaving,
  privateChannelAfterOwnerLeft,
  toExportedMessage,
} from '../../core/leaving';
import type { Channel, Invitation } from '../../core/model';
import { toOffer } from '../../core/offers';
import { channelDisplayName } from '../../core/privateChannels';
import type { Caller } from '../../core/permissions';
import { AUTH_MESSAGES } from '../auth/sessions';
import type { ServerContext } from '../context';
import { write } from '../db/database';
import { removeFiles } from './attachments';
import { messageAudience, publishChannel } from './channels';
import type { ServiceContext } from '../context';

function requireSelf(caller: Caller, uid: string): void {
  if (caller.uid !== uid) throw new QupmError('PERMISSION_DENIED', LEAVING_MESSAGES.notYours);
}

const gone = (): QupmError => new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.sessionEnded, 'session-expired');

/** Everything QuPM keeps about the caller's account (core/leaving.ts AccountExport), read in one transaction. */
export function exportAccount(ctx: ServiceContext, caller: Caller, uid: string): AccountExport {
  requireSelf(caller, uid);
  const now = ctx.now();
  // A read transaction: one consistent picture even while messages keep arriving.
  return ctx.db.transaction(() => {
    const { repos } = ctx;
    const account = repos.users.getDoc(uid);
    if (!account) throw gone();
    const channels = new Map<string, Channel | null>();
    const titleOf = (channelId: string): string => {
      if (!channels.has(channelId)) channels.set(channelId, repos.channels.get(channelId));
      const channel = channels.get(channelId);
      return channel ? channelDisplayName(channel, uid) : '';
    };
    const messages = repos.leaving.messagesOf(uid).flatMap(({ id, channel_id }) => {
      const message = repos.messages.get(id);
      return message ? [toExportedMessage(message, titleOf(channel_id))] : [];
    });
    const invitations = (ids: string[]): Invitation[] =>
      ids.flatMap((id) => {
        const invitation = repos.invitations.get(id);
        return invitation ? [invitation] : [];
      });
    return buildAccountExport(
      {
        account,
        mutes: repos.mutes.activeFor(uid, now),
        messages,
        offersReceived: repos.offers.listFor(uid).map(toOffer),
        offersIssued: repos.offers.listIssuedBy(uid),
        invitationsSent: invitations(repos.leaving.invitationsSentBy(uid)),
        invitationsReceived: invitations(
          repos.leaving.invitationsReceivedBy(uid, normalizeEmail(account.email)),
        ),
        devices: repos.tokens.list(uid),
      },
      now,
    );
  })();
}

type LeavingContext = ServiceContext & Pick<ServerContext, 'sessions' | 'attachmentsDir'>;

/**
 * Deletes the caller's account once `password` is theirs. Refused, with nothing changed: someone else's account
 * (PERMISSION_DENIED), a wrong password (PERMISSION_DENIED: never UNAUTHENTICATED, which would sign the person
 * out), a consultant who still owns channels (FAILED_PRECONDITION naming them). An account already gone is
 * UNAUTHENTICATED (its session went with it).
 */
export async function deleteAccount(
  ctx: LeavingContext,
  caller: Caller,
  uid: string,
  password: string,
): Promise<void> {
  requireSelf(caller, uid);
  const verdict = await ctx.sessions.checkPassword(uid, password);
  if (verdict === 'no-account') throw gone();
  if (verdict === 'wrong') throw new QupmError('PERMISSION_DENIED', LEAVING_MESSAGES.wrongPassword);

  const outcome = write(ctx.db, () => {
    const { repos } = ctx;
    const account = repos.users.findAccount(uid);
    if (!account) throw gone();
    assertCanLeave(repos.leaving.ownedChannelTitles(uid));
    assertNoOpenSessions(repos.bookings.openCountForConsultant(uid));
    const now = ctx.now();
    const sessions = repos.leaving.sessionsOf(uid);
    const joined = repos.channels.listFor(uid);
    const byChannel = new Map<string, string[]>();
    for (const row of repos.leaving.messagesOf(uid)) {
      byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row.id]);
    }
    for (const channelId of byChannel.keys()) {
      // The channel's newest version + 1 at least, so a subscriber catching up from its cursor misses nothing.
      const stamp = Math.max(now, (repos.messages.newestVersion(channelId) ?? 0) + 1);
      repos.leaving.renameMessagesIn(uid, channelId, stamp);
    }
    const renamed = [...byChannel.values()].flat();
    for (const channel of repos.leaving.privateChannelsJoined(uid)) {
      const after = privateChannelAfterLeaving(channel.names, channel.ownerId);
      repos.leaving.renamePrivateChannel(channel.id, after.title, after.names);
    }
    const handed = repos.leaving.privateChannelsOwned(uid);
    for (const channel of handed) {
      repos.leaving.handPrivateChannel(
        channel.id,
        privateChannelAfterOwnerLeft(channel.names, channel.memberId, now),
      );
    }
    // Before the rest is reassigned: what was never sent goes, row now and file after the commit.
    const unsentUploads = repos.leaving.dropUnsentUploads(uid);
    repos.leaving.reassignRecords(uid);
    // The sessions they booked as a client are cancelled (their times freed); their balance goes with them.
    for (const booking of repos.bookings.openForClient(uid)) {
      try {
        repos.bookings.save(planCancel(booking, { uid }, now).booking);
      } catch {
        // A session already under way stays as it is in the consultant's history.
      }
    }
    repos.leaving.reassignPractice(uid);
    repos.leaving.dropQueuedPushesTo(uid);
    // A verification, reset or missed-message mail still waiting would reach an account that no longer exists.
    repos.mailJobs.dropQueuedTo(account.email, now);
    repos.leaving.deleteAccount(uid);
    return {
      sessions,
      joined: [...new Set([...joined, ...handed].map((c) => c.id))],
      renamed,
      unsentUploads,
    };
  });

  // The bytes of the uploads whose rows went with the account. The account is gone whatever happens here: a
  // file that cannot be removed is told to the operator, not to the person as a failure.
  await removeFiles(ctx, outcome.unsentUploads).catch((error: unknown) => {
    console.error('Removing the unsent uploads of a deleted account failed', error);
  });

  // After the commit: the account's streams end at once, and those who shared a channel see it change.
  for (const sessionId of outcome.sessions) ctx.hub.endSession(sessionId, 'signed-out');
  ctx.hub.endUser(uid, 'signed-out');
  for (const channelId of outcome.joined) {
    const channel = ctx.repos.channels.get(channelId);
    if (channel) publishChannel(ctx, channel);
  }
  for (const id of outcome.renamed) {
    const message = ctx.repos.messages.get(id);
    const channel = message ? ctx.repos.channels.get(message.channelId) : null;
    if (message && channel) ctx.hub.publish(messageAudience(channel), { type: 'message', data: { message } });
  }
}
