// POST /api/offers and GET /api/offers/issued (core/wire.ts API): a consultant's side of offers.
import type { FastifyInstance } from 'fastify';
import { assertExpiry } from '../../core/expiry';
import { offerCreateBody } from '../../core/schemas';
import type { ServerContext } from '../context';
import { parse } from '../http';
import { issueOffer, listIssuedOffers } from '../services/offers';

export function registerOfferRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/offers', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(offerCreateBody, request.body);
    assertExpiry(body.expiresAt, ctx.now());
    await ctx.guards.callables(request, caller.uid);
    return issueOffer(ctx, caller, body);
  });

  app.get('/api/offers/issued', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { offers: listIssuedOffers(ctx, caller) };
  });
}
