// /api/channels, /api/channels/:id and its messages (core/wire.ts API).
import type { FastifyInstance } from 'fastify';
import { channelsQuery, messageCreateBody, messagesQuery } from '../../core/schemas';
import type { ServerContext } from '../context';
import { idParams, parse } from '../http';
import {
  findChannelByHandle,
  listMessages,
  listMyChannels,
  readChannel,
  sendMessage,
} from '../services/channels';

export function registerChannelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/channels', async (request) => {
    const caller = await ctx.authenticate(request);
    const query = parse(channelsQuery, request.query);
    await ctx.guards.documents(request, caller.uid);
    const channels =
      'mine' in query ? listMyChannels(ctx, caller) : findChannelByHandle(ctx, caller, query.channelId);
    return { channels };
  });

  app.get('/api/channels/:id', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return readChannel(ctx, caller, id);
  });

  app.get('/api/channels/:id/messages', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    const query = parse(messagesQuery, request.query);
    await ctx.guards.documents(request, caller.uid);
    return { messages: listMessages(ctx, caller, id, query) };
  });

  app.post('/api/channels/:id/messages', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    const { text } = parse(messageCreateBody, request.body);
    await ctx.guards.messages(request, caller.uid);
    return sendMessage(ctx, caller, id, text);
  });
}
