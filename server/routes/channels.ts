// /api/channels, /api/channels/:id, its messages, members, read mark and invitations (core/wire.ts API).
import type { FastifyInstance } from 'fastify';
import {
  channelCreateBody,
  channelPatchBody,
  channelsQuery,
  markReadBody,
  messageCreateBody,
  messagePatchBody,
  messagesQuery,
} from '../../core/schemas';
import type { ServerContext } from '../context';
import { idParams, messageParams, parse } from '../http';
import {
  channelOverview,
  createChannel,
  findChannelByHandle,
  listMembers,
  listMessages,
  listMyChannels,
  markRead,
  readChannel,
  sendMessage,
  updateChannel,
} from '../services/channels';
import { listChannelInvitations } from '../services/invitations';
import { deleteMessage, editMessage } from '../services/messageEdits';

export function registerChannelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/channels', async (request) => {
    const caller = await ctx.authenticate(request);
    const query = parse(channelsQuery, request.query);
    await ctx.guards.documents(request, caller.uid);
    const channels =
      'mine' in query ? listMyChannels(ctx, caller) : findChannelByHandle(ctx, caller, query.channelId);
    return { channels };
  });

  // A static path: Fastify matches it before /api/channels/:id.
  app.get('/api/channels/overview', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { channels: channelOverview(ctx, caller) };
  });

  app.post('/api/channels', async (request) => {
    const caller = await ctx.authenticate(request);
    const body = parse(channelCreateBody, request.body);
    await ctx.guards.callables(request, caller.uid);
    return createChannel(ctx, caller, body);
  });

  app.get('/api/channels/:id', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return readChannel(ctx, caller, id);
  });

  app.patch('/api/channels/:id', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    const patch = parse(channelPatchBody, request.body);
    await ctx.guards.callables(request, caller.uid);
    return updateChannel(ctx, caller, id, patch);
  });

  app.get('/api/channels/:id/members', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return { members: listMembers(ctx, caller, id) };
  });

  app.post('/api/channels/:id/read', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    const { messageId } = parse(markReadBody, request.body);
    await ctx.guards.documents(request, caller.uid);
    markRead(ctx, caller, id, messageId);
    return { success: true };
  });

  app.get('/api/channels/:id/invitations', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id } = parse(idParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    return { invitations: listChannelInvitations(ctx, caller, id) };
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
    const body = parse(messageCreateBody, request.body);
    await ctx.guards.messages(request, caller.uid);
    return sendMessage(ctx, caller, id, body);
  });

  // Issue #13: its sender edits a message (24 hours), its sender or the channel's owner deletes it.
  app.patch('/api/channels/:id/messages/:messageId', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id, messageId } = parse(messageParams, request.params);
    const { text } = parse(messagePatchBody, request.body);
    await ctx.guards.messages(request, caller.uid);
    return editMessage(ctx, caller, id, messageId, text);
  });

  app.delete('/api/channels/:id/messages/:messageId', async (request) => {
    const caller = await ctx.authenticate(request);
    const { id, messageId } = parse(messageParams, request.params);
    await ctx.guards.messages(request, caller.uid);
    return deleteMessage(ctx, caller, id, messageId);
  });
}
