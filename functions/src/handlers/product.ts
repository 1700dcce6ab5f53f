// The product's callables (src/backend/firebase/callables.ts PRODUCT_CALLABLES): channels, invitations created by a
// channel's owner, offers issued to its members, and the admin section. Decided by core/ exactly as the embedded
// server's services do (server/services/channels.ts, invitations.ts, offers.ts, admin.ts), in the same order:
// validation against the clock, then ownership, then existence (a document that must be read to know its owner
// answers not-found first).
import {
  ADMIN_MESSAGES,
  assertAdmin,
  assertCanSetRole,
  sortAdminChannels,
  sortAdminUsers,
  withRole,
} from '../../../core/admin';
import {
  assertCanCreateChannel,
  assertCanListInvitations,
  assertCanListMembers,
  assertCanMarkRead,
  assertChannelOwner,
  assertInviteeIsSomeoneElse,
  CHANNEL_MESSAGES,
  channelMembers,
  isUnread,
  nextReadMark,
  READ_MARK_MESSAGES,
  sortInvitations,
} from '../../../core/channels';
import type { ReadMark } from '../../../core/channels';
import { QupmError } from '../../../core/errors';
import { assertExpiry } from '../../../core/expiry';
import { withEffectiveStatus } from '../../../core/invitations';
import { sortOverview } from '../../../core/overview';
import type {
  AdminChannel,
  AdminUser,
  Channel,
  ChannelMember,
  ChannelOverview,
  Invitation,
  IssuedOffer,
} from '../../../core/model';
import { assertOfferRecipient, OFFER_MESSAGES, sortIssuedOffers } from '../../../core/offers';
import type { StoredOffer } from '../../../core/offers';
import { offerCard, offerCardText } from '../../../core/cards';
import type { ProductCallableName, productCallablePayloads } from '../../../core/schemas';
import { publicName } from '../../../core/users';
import { decidePrivatePair, newPrivateChannel } from '../../../core/privateChannels';
import { privateChannelId } from '../privateChannelId';
import type { Handler } from '../callable';
import { receiptMoved } from './receipts';
import type { Repository } from '../repository';

interface ProductResults {
  get_channel_overview: { channels: ChannelOverview[] };
  create_channel: Channel;
  update_channel: Channel;
  list_channel_members: { members: ChannelMember[] };
  mark_channel_read: { success: true };
  create_invitation: Invitation;
  list_channel_invitations: { invitations: Invitation[] };
  issue_offer: IssuedOffer;
  list_issued_offers: { offers: IssuedOffer[] };
  admin_list_users: { users: AdminUser[] };
  admin_set_consultant: AdminUser;
  admin_list_channels: { channels: AdminChannel[] };
  open_private_channel: Channel;
}

async function existingChannel(repo: Repository, id: string): Promise<Channel> {
  const channel = await repo.getChannel(id);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  return channel;
}

/**
 * What `uid` has not read in the channel (core/channels.ts isUnread): messages by others after their mark. Counted
 * by the server from the millisecond after the mark on; of the mark's own millisecond, only the messages after
 * the marked one are read and judged (a marker from before read marks named a message read its whole millisecond).
 */
async function unreadCount(
  repo: Repository,
  channelId: string,
  uid: string,
  mark: ReadMark | null,
): Promise<number> {
  const later = await repo.countMessages(channelId, mark === null ? null : mark.createdAt + 1, uid);
  if (mark === null || mark.id === '') return later.all - later.by;
  const sameMillisecond = await repo.messagesAt(channelId, mark.createdAt);
  return later.all - later.by + sameMillisecond.filter((message) => isUnread(message, uid, mark)).length;
}

/** The public name of each uid that has a user document ('' for those that do not). */
async function namesOf(repo: Repository, uids: readonly string[]): Promise<(uid: string) => string> {
  const users = await repo.getUsers(uids);
  return (uid) => {
    const user = users.get(uid);
    return user ? publicName(user) : '';
  };
}

export const productCallables: {
  [N in ProductCallableName]: Handler<(typeof productCallablePayloads)[N], ProductResults[N]>;
} = {
  async get_channel_overview({ repo }, caller) {
    const channels = await repo.listChannelsFor(caller.uid);
    const overview = await Promise.all(
      channels.map(async (channel): Promise<ChannelOverview> => {
        const [lastMessage, mark] = await Promise.all([
          repo.latestMessage(channel.id),
          repo.getReadMark(caller.uid, channel.id),
        ]);
        return { channel, lastMessage, unread: await unreadCount(repo, channel.id, caller.uid, mark) };
      }),
    );
    return { channels: sortOverview(overview) };
  },

  async create_channel({ repo, now }, caller, input) {
    assertCanCreateChannel(await repo.getUser(caller.uid));
    const channel = { id: repo.newId(), ownerId: caller.uid, createdAt: now(), ...input };
    if (!(await repo.createChannel(channel))) {
      throw new QupmError('ALREADY_EXISTS', CHANNEL_MESSAGES.handleTaken);
    }
    return { ...channel, members: [] };
  },

  async update_channel({ repo }, caller, { id, ...patch }) {
    return repo.updateChannel(id, (channel) => {
      if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
      assertChannelOwner(channel, caller.uid);
      return { title: patch.title ?? channel.title, description: patch.description ?? channel.description };
    });
  },

  async list_channel_members({ repo }, caller, { channelId }) {
    const channel = await existingChannel(repo, channelId);
    assertCanListMembers(channel, caller);
    const [joined, nameOf] = await Promise.all([
      repo.memberJoinTimes(channelId),
      namesOf(repo, [channel.ownerId, ...channel.members]),
    ]);
    return {
      members: channelMembers(channel, (uid) => joined[uid] ?? channel.createdAt, nameOf),
    };
  },

  async mark_channel_read(deps, caller, { channelId, messageId }) {
    const { repo } = deps;
    // Ownership before the message's existence: someone outside the channel learns nothing about its messages.
    assertCanMarkRead(await existingChannel(repo, channelId), caller.uid);
    const message = await repo.getMessage(channelId, messageId);
    if (!message) throw new QupmError('NOT_FOUND', READ_MARK_MESSAGES.noSuchMessage);
    // Idempotent and monotonic: a late or repeated mark (another tab, a retry) never moves it back.
    const mark = await repo.updateReadMark(caller.uid, channelId, (current) =>
      nextReadMark(current, message),
    );
    // Read receipts (handlers/receipts.ts): the mark's mirror that the channel's participants may see.
    await receiptMoved(deps, caller, channelId, 'read', mark);
    return { success: true };
  },

  async create_invitation({ repo, now }, caller, input) {
    const at = now();
    assertExpiry(input.expiresAt, at);
    assertInviteeIsSomeoneElse(input.inviteeEmail, caller);
    const channel = await existingChannel(repo, input.channelId);
    assertChannelOwner(channel, caller.uid);
    const id = repo.newId();
    await repo.createInvitation({ id, ...input, consultantId: caller.uid, createdAt: at });
    const nameOf = await namesOf(repo, [caller.uid]);
    const invitation: Invitation = {
      id,
      channelId: channel.id,
      channelTitle: channel.title,
      consultantId: caller.uid,
      consultantName: nameOf(caller.uid),
      status: 'pending',
      passes: input.passes,
      credits: input.credits,
      expiresAt: input.expiresAt,
    };
    if (input.inviteeEmail !== undefined) invitation.inviteeEmail = input.inviteeEmail;
    if (input.privateConsultation === true) invitation.privateConsultation = true;
    return invitation;
  },

  async list_channel_invitations({ repo, now }, caller, { channelId }) {
    assertCanListInvitations(await existingChannel(repo, channelId), caller);
    const at = now();
    const listed = sortInvitations(
      (await repo.listInvitationsForChannel(channelId)).map(({ invitation, createdAt }) => ({
        ...invitation,
        createdAt,
      })),
    );
    return {
      invitations: listed.map(({ createdAt: _createdAt, ...invitation }) =>
        withEffectiveStatus(invitation, at),
      ),
    };
  },

  async issue_offer(deps, caller, input) {
    const { repo, now } = deps;
    const at = now();
    assertExpiry(input.expiresAt, at);
    // One transaction: the offer, and for an offer of a service its card in the private consultation (a
    // message, which on_message_created pushes), as the embedded server's issueOffer does.
    return deps.practice.run(async (tx) => {
      const channel = await tx.channel(input.channelId);
      if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
      assertChannelOwner(channel, caller.uid);
      assertOfferRecipient(channel, input.userId);
      const service = await tx.service(input.serviceId);
      if (!service || service.consultantId !== caller.uid || service.status !== 'active') {
        throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.serviceNotYours);
      }
      const offer: StoredOffer = {
        offeringId: repo.newId(),
        userId: input.userId,
        channelId: channel.id,
        serviceId: service.id,
        consultantId: caller.uid,
        discountPercent: input.discountPercent,
        source: input.source,
        status: 'active',
        expiresAt: input.expiresAt,
        createdAt: at,
      };
      tx.createOffer(offer);
      const [recipient, consultant] = await Promise.all([tx.user(input.userId), tx.user(caller.uid)]);
      const pair = { ownerId: caller.uid, memberId: input.userId };
      const id = privateChannelId(pair);
      let conversation = await tx.channel(id);
      if (!conversation) {
        conversation = newPrivateChannel({
          id,
          pair,
          names: {
            [pair.ownerId]: consultant ? publicName(consultant) : '',
            [pair.memberId]: recipient ? publicName(recipient) : '',
          },
          createdAt: at,
        });
        tx.createPrivateChannel(conversation);
      }
      const zone = (await tx.availability(caller.uid))?.timeZone ?? 'UTC';
      tx.addMessage({
        id: repo.newId(),
        channelId: conversation.id,
        senderId: caller.uid,
        senderName: consultant ? publicName(consultant) : '',
        text: offerCardText(
          {
            serviceTitle: service.title,
            discountPercent: input.discountPercent,
            expiresAt: input.expiresAt,
          },
          zone,
        ),
        createdAt: at,
        card: offerCard({ ...offer, serviceId: service.id, serviceTitle: service.title }),
      });
      const { consultantId: _consultant, ...issued } = offer;
      return { ...issued, userName: recipient ? publicName(recipient) : '' };
    });
  },

  async list_issued_offers({ repo, practice }, caller) {
    // The issuer is the consultant who made the offer (channels change hands); offers from before they were
    // named count for their channel's owner, as on the embedded server (migration 011).
    const owned = (await repo.listChannelsFor(caller.uid)).filter(
      (channel) => channel.ownerId === caller.uid,
    );
    const [legacy, named] = await Promise.all([
      owned.length === 0 ? [] : repo.listOffersForChannels(owned.map((channel) => channel.id)),
      practice.offersIssuedBy(caller.uid),
    ]);
    const byId = new Map<string, StoredOffer>();
    for (const offer of [...legacy.filter((o) => o.consultantId === undefined), ...named])
      byId.set(offer.offeringId, offer);
    const offers = [...byId.values()];
    const nameOf = await namesOf(
      repo,
      offers.map((offer) => offer.userId),
    );
    return {
      offers: sortIssuedOffers(
        offers.map(({ consultantId: _consultant, ...offer }) => ({
          ...offer,
          userName: nameOf(offer.userId),
        })),
      ),
    };
  },

  async admin_list_users({ repo, accounts }, caller) {
    assertAdmin(caller);
    const records = await repo.listUsers();
    const admins = await accounts.admins(records.map(({ user }) => user.uid));
    return {
      users: sortAdminUsers(
        records.map(({ user, createdAt }) => ({
          uid: user.uid,
          email: user.email,
          name: publicName(user),
          isOwner: user.isOwner,
          isAdmin: admins.has(user.uid),
          createdAt,
        })),
      ),
    };
  },

  async admin_set_consultant({ repo, accounts }, caller, { uid, isOwner }) {
    assertCanSetRole(caller, uid);
    const { user, createdAt } = await repo.setRole(uid, (before, joined) => {
      if (!before) throw new QupmError('NOT_FOUND', ADMIN_MESSAGES.noSuchUser);
      return withRole(before, isOwner, joined);
    });
    const admins = await accounts.admins([uid]);
    return {
      uid,
      email: user.email,
      name: publicName(user),
      isOwner: user.isOwner,
      isAdmin: admins.has(uid),
      createdAt,
    };
  },

  /** As POST /api/private-channels (server/services/privateChannels.ts): one per pair, its id the pair's. */
  async open_private_channel({ repo, now }, caller, { withUid, viaChannelId }) {
    const pair = decidePrivatePair(caller.uid, withUid, await repo.getChannel(viaChannelId));
    const nameOf = await namesOf(repo, [pair.ownerId, pair.memberId]);
    return repo.ensurePrivateChannel(
      newPrivateChannel({
        id: privateChannelId(pair),
        pair,
        names: { [pair.ownerId]: nameOf(pair.ownerId), [pair.memberId]: nameOf(pair.memberId) },
        createdAt: now(),
      }),
    );
  },

  async admin_list_channels({ repo }, caller) {
    assertAdmin(caller);
    const channels = await repo.listAllChannels();
    const nameOf = await namesOf(
      repo,
      channels.map((channel) => channel.ownerId),
    );
    const counted = await Promise.all(
      channels.map(async (channel) => ({
        channel,
        ownerName: nameOf(channel.ownerId),
        messageCount: (await repo.countMessages(channel.id, null, '')).all,
      })),
    );
    return { channels: sortAdminChannels(counted) };
  },
};
