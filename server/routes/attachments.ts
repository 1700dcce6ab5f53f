// /api/channels/:id/attachments: a member uploads a file (the raw bytes as the body, its name in the query) and
// members download it (core/wire.ts, server/services/attachments.ts).
//
// A raw body rather than multipart (@fastify/multipart): one file per request, so there is nothing to split; the
// browser sends a Blob as it is with XMLHttpRequest, whose upload progress the composer shows; Fastify refuses a
// body over the limit before it is read whole; and no multipart parser writes temporary files that a failed
// upload could leave behind. The session, the rate limit and membership are checked before the body is read
// (the table's `upload` kind, server/api.ts).
import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { ATTACHMENT_ACCESS_MESSAGES } from '../../core/attachments';
import type { Attachment } from '../../core/attachments';
import { QupmError } from '../../core/errors';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { assertMayUpload, openAttachment, uploadAttachment } from '../services/attachments';

/** The headers every download carries: never sniffed, never run, documents never shown in the page. */
export function downloadHeaders(attachment: Attachment): Record<string, string> {
  const disposition = attachment.kind === 'image' ? 'inline' : 'attachment';
  // An ASCII fallback name for old clients, the real one (RFC 5987) for the rest.
  const fallback = attachment.name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return {
    'content-type': attachment.contentType,
    'x-content-type-options': 'nosniff',
    'content-disposition': `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'private, no-store',
  };
}

export const attachmentRoutes = (ctx: ServerContext) =>
  ({
    uploadAttachment: {
      // Before the bytes are read: whether they may post files in this channel at all, and whether the size
      // declared fits what is left of their quota.
      beforeBody: ({ caller, params, request }) => {
        const declared = Number(request.headers['content-length']);
        assertMayUpload(ctx, caller, params.id, Number.isNaN(declared) ? undefined : declared);
      },
      handle: ({ caller, params, query, body }) => {
        const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
        return uploadAttachment(ctx, caller, params.id, { name: query.name, bytes });
      },
    },
    downloadAttachment: {
      handle: async ({ caller, params, reply }) => {
        const { attachment, file } = openAttachment(ctx, caller, params.id, params.attachmentId);
        const size = await stat(file).then(
          (stats) => stats.size,
          () => null,
        );
        if (size === null) throw new QupmError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
        void reply.headers({ ...downloadHeaders(attachment), 'content-length': String(size) });
        return reply.send(createReadStream(file));
      },
    },
  }) satisfies Partial<RouteHandlers>;
