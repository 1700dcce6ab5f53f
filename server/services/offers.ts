// Offers from the consultant's side (issue #6): a channel's owner issues a discount to one of its members and
// lists what they issued. core/channels.ts and core/offers.ts decide; the person's own active offers are the
// get_user_active_offers callable (services/callables.ts).
import { assertChannelOwner, CHANNEL_MESSAGES } from '../../core/channels';
import { QupmError } from '../../core/errors';
import type { IssuedOffer } from '../../core/model';
import { assertOfferRecipient } from '../../core/offers';
import type { Caller } from '../../core/permissions';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { ServiceContext } from '../context';

/** Tells the person an offer went to, and its consultant, that their offers changed (they read them again). */
function publishOffers(ctx: ServiceContext, uids: readonly string[]): void {
  ctx.hub.publish({ uids }, { type: 'offers', data: { changed: true } });
}

export function issueOffer(
  ctx: ServiceContext,
  caller: Caller,
  input: { channelId: string; userId: string; discountPercent: number; source: string; expiresAt: number },
): IssuedOffer {
  const offer = write(ctx.db, () => {
    const channel = ctx.repos.channels.get(input.channelId);
    if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
    assertChannelOwner(channel, caller.uid);
    assertOfferRecipient(channel, input.userId);
    const offeringId = newDocumentId();
    ctx.repos.offers.insert({
      offeringId,
      userId: input.userId,
      channelId: channel.id,
      discountPercent: input.discountPercent,
      source: input.source,
      status: 'active',
      expiresAt: input.expiresAt,
      createdAt: ctx.now(),
    });
    const issued = ctx.repos.offers.getIssued(offeringId);
    if (!issued) throw new Error('The offer just written cannot be read back');
    return issued;
  });
  publishOffers(ctx, [offer.userId, caller.uid]);
  return offer;
}

/** The offers of the caller's channels, newest first, whatever their status now. */
export function listIssuedOffers(ctx: ServiceContext, caller: Caller): IssuedOffer[] {
  return ctx.repos.offers.listIssuedBy(caller.uid);
}
