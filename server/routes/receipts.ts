// Read receipts and typing (core/wire.ts): the marks the caller may see, delivered marks, typing signals, and
// whether the caller shares receipts.
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import {
  getReceiptSettings,
  listReceipts,
  markDelivered,
  sendTyping,
  setReceiptSettings,
} from '../services/receipts';

export const receiptRoutes = (ctx: ServerContext) =>
  ({
    listReceipts: {
      handle: ({ caller, params }) => ({ receipts: listReceipts(ctx, caller, params.id) }),
    },
    markDelivered: {
      handle: ({ caller, params, body }) => {
        markDelivered(ctx, caller, params.id, body.messageId);
        return { success: true };
      },
    },
    sendTyping: {
      handle: ({ caller, params }) => {
        sendTyping(ctx, caller, params.id);
        return { success: true };
      },
    },
    getReceiptSettings: { handle: ({ caller }) => getReceiptSettings(ctx, caller) },
    setReceiptSettings: {
      handle: ({ caller, body }) => setReceiptSettings(ctx, caller, body.enabled),
    },
  }) satisfies Partial<RouteHandlers>;
