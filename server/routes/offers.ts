// POST /api/offers and GET /api/offers/issued (core/wire.ts): a consultant's side of offers.
import { assertExpiry } from '../../core/expiry';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { issueOffer, listIssuedOffers } from '../services/offers';

export const offerRoutes = (ctx: ServerContext) =>
  ({
    issueOffer: {
      // Validation against the server's clock, before the rate limit.
      check: ({ body }) => assertExpiry(body.expiresAt, ctx.now()),
      handle: ({ caller, body }) => issueOffer(ctx, caller, body),
    },
    listIssuedOffers: { handle: ({ caller }) => ({ offers: listIssuedOffers(ctx, caller) }) },
  }) satisfies Partial<RouteHandlers>;
