// /api/channels, /api/channels/:id, its messages, members, read mark and invitations (core/wire.ts).
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
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
import { deleteMessage, editMessage, reactToMessage } from '../services/messageEdits';
import { searchMessages } from '../services/search';
import type { ChatMessage } from '../../core/model';

/** The answers of kept pages (frozen: server/repo/messages.ts), one per page, so their JSON is written once. */
const keptPageAnswers = new WeakMap<ChatMessage[], { messages: ChatMessage[] }>();

function pageAnswer(messages: ChatMessage[]): { messages: ChatMessage[] } {
  if (!Object.isFrozen(messages)) return { messages };
  let answer = keptPageAnswers.get(messages);
  if (answer === undefined) {
    answer = Object.freeze({ messages });
    keptPageAnswers.set(messages, answer);
  }
  return answer;
}

export const channelRoutes = (ctx: ServerContext) =>
  ({
    listChannels: {
      handle: ({ caller, query }) => ({
        channels:
          'mine' in query ? listMyChannels(ctx, caller) : findChannelByHandle(ctx, caller, query.channelId),
      }),
    },
    channelOverview: { handle: ({ caller }) => ({ channels: channelOverview(ctx, caller) }) },
    createChannel: { handle: ({ caller, body }) => createChannel(ctx, caller, body) },
    getChannel: { handle: ({ caller, params }) => readChannel(ctx, caller, params.id) },
    updateChannel: { handle: ({ caller, params, body }) => updateChannel(ctx, caller, params.id, body) },
    listMembers: { handle: ({ caller, params }) => ({ members: listMembers(ctx, caller, params.id) }) },
    markRead: {
      handle: ({ caller, params, body }) => {
        markRead(ctx, caller, params.id, body.messageId);
        return { success: true };
      },
    },
    listChannelInvitations: {
      handle: ({ caller, params }) => ({ invitations: listChannelInvitations(ctx, caller, params.id) }),
    },
    listMessages: {
      handle: ({ caller, params, query }) => pageAnswer(listMessages(ctx, caller, params.id, query)),
    },
    sendMessage: { handle: ({ caller, params, body }) => sendMessage(ctx, caller, params.id, body) },
    // Its sender edits a message (24 hours), its sender or the channel's owner deletes it.
    editMessage: {
      handle: ({ caller, params, body }) => editMessage(ctx, caller, params.id, params.messageId, body.text),
    },
    deleteMessage: {
      handle: ({ caller, params }) => deleteMessage(ctx, caller, params.id, params.messageId),
    },
    reactToMessage: {
      handle: ({ caller, params, body }) =>
        reactToMessage(ctx, caller, params.id, params.messageId, body.emoji),
    },
    searchMessages: { handle: ({ caller, body }) => searchMessages(ctx, caller, body) },
  }) satisfies Partial<RouteHandlers>;
