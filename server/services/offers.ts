// Offers from the consultant's side and, since offers lead somewhere, for one of the
// consultant's services: a channel's owner issues a discount to one of its members, for one of their active
// services; the member gets it as a card in their private consultation with the consultant, with its push. The
// person's own offers are the get_user_active_offers callable (spec §7 fields) and listMyOffers (with the service
// and the state). core/channels.ts and core/offers.ts decide.
import { assertChannelOwner, CHANNEL_MESSAGES } from '../../core/channels';
import { offerCard, offerCardText } from '../../core/cards';
import { QupmError } from '../../core/errors';
import type { ChatMessage, IssuedOffer } from '../../core/model';
import type { ReceivedOffer } from '../../core/offers';
import { assertOfferRecipient, OFFER_MESSAGES, sortReceivedOffers, toReceivedOffer } from '../../core/offers';
import type { Caller } from '../../core/permissions';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { ServerContext, ServiceContext } from '../context';
import { messageAudience, publishChannel, storeMessage } from './channels';
import { ensurePrivateChannel } from './privateChannels';

/** Tells the person an offer went to, and its consultant, that their offers changed (they read them again). */
export function publishOffers(ctx: ServiceContext, uids: readonly string[]): void {
  ctx.hub.publish({ uids }, { type: 'offers', data: { changed: true } });
}

export type OfferContext = ServiceContext & Partial<Pick<ServerContext, 'pushQueue'>>;

export function issueOffer(
  ctx: OfferContext,
  caller: Caller,
  input: {
    channelId: string;
    userId: string;
    serviceId: string;
    discountPercent: number;
    source: string;
    expiresAt: number;
  },
): IssuedOffer {
  const outcome = write(ctx.db, () => {
    const now = ctx.now();
    const channel = ctx.repos.channels.get(input.channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    assertChannelOwner(channel, caller.uid);
    assertOfferRecipient(channel, input.userId);
    const service = ctx.repos.catalog.get(input.serviceId);
    if (!service || service.consultantId !== caller.uid || service.status !== 'active') {
      throw new QupmError('FAILED_PRECONDITION', OFFER_MESSAGES.serviceNotYours);
    }
    const offeringId = newDocumentId();
    ctx.repos.offers.insert({
      offeringId,
      userId: input.userId,
      channelId: channel.id,
      serviceId: service.id,
      consultantId: caller.uid,
      discountPercent: input.discountPercent,
      source: input.source,
      status: 'active',
      expiresAt: input.expiresAt,
      createdAt: now,
    });
    const issued = ctx.repos.offers.getIssued(offeringId);
    if (!issued) throw new Error('The offer just written cannot be read back');
    // The card goes to the two people's private consultation: other members never read someone's discount.
    const opened = ensurePrivateChannel(ctx, { ownerId: caller.uid, memberId: input.userId }, now);
    const card = offerCard({ offeringId, ...input, serviceId: service.id, serviceTitle: service.title });
    const message: ChatMessage = {
      id: newDocumentId(),
      channelId: opened.channel.id,
      senderId: caller.uid,
      senderName: ctx.repos.users.publicName(caller.uid),
      text: offerCardText(
        { serviceTitle: service.title, discountPercent: input.discountPercent, expiresAt: input.expiresAt },
        ctx.repos.catalog.availability(caller.uid)?.timeZone ?? 'UTC',
      ),
      createdAt: Math.max(now, ctx.repos.messages.latest(opened.channel.id)?.createdAt ?? now),
      card,
    };
    const { queued } = storeMessage(ctx, opened.channel, message, now);
    return { issued, card: { message, channel: opened.channel, opened: opened.created, queued } };
  });
  publishOffers(ctx, [outcome.issued.userId, caller.uid]);
  if (outcome.card.opened) publishChannel(ctx, outcome.card.channel);
  ctx.hub.publish(messageAudience(outcome.card.channel), {
    type: 'message',
    data: { message: outcome.card.message },
  });
  if (outcome.card.queued) ctx.pushQueue?.wake();
  return outcome.issued;
}

/** The offers of the caller's channels, newest first, whatever their status now. */
export function listIssuedOffers(ctx: ServiceContext, caller: Caller): IssuedOffer[] {
  return ctx.repos.offers.listIssuedBy(caller.uid);
}

/** Every offer made to the caller, with its service and its state now: active first, then used and expired. */
export function listMyOffers(ctx: ServiceContext, caller: Caller): ReceivedOffer[] {
  const now = ctx.now();
  return sortReceivedOffers(
    ctx.repos.offers.listFor(caller.uid).map((offer) => {
      const service = offer.serviceId === undefined ? null : ctx.repos.catalog.get(offer.serviceId);
      const consultantId = offer.consultantId ?? ctx.repos.channels.get(offer.channelId)?.ownerId ?? '';
      return toReceivedOffer(
        offer,
        { consultantId, ...(service ? { serviceTitle: service.title } : {}) },
        now,
      );
    }),
  );
}
