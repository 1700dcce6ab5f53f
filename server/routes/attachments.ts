// /api/channels/:id/attachments: a member uploads a file (the raw bytes as the body, its name in the query) and
// members download it (core/wire.ts API, server/services/attachments.ts).
//
// A raw body rather than multipart (@fastify/multipart): one file per request, so there is nothing to split; the
// browser sends a Blob as it is with XMLHttpRequest, whose upload progress the composer shows; Fastify refuses a
// body over the limit before it is read whole; and no multipart parser writes temporary files that a failed
// upload could leave behind. The session, the rate limit and membership are checked before the body is read.
import { stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  ATTACHMENT_ACCESS_MESSAGES,
} from '../../core/attachments';
import type { Attachment } from '../../core/attachments';
import { QupmError } from '../../core/errors';
import { documentIdSchema } from '../../core/schemas';
import type { ServerContext } from '../context';
import { idParams, parse } from '../http';
import { assertMayUpload, openAttachment, uploadAttachment } from '../services/attachments';

const uploadQuery = z.strictObject({ name: z.string().max(1000) });
const fileParams = z.strictObject({ id: documentIdSchema, attachmentId: documentIdSchema });

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

export async function registerAttachmentRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  await app.register(async (scope) => {
    // Only this scope takes raw bytes, of any declared type (the declared type is ignored: the bytes decide).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: ATTACHMENT_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.setErrorHandler((error, _request, _reply) => {
      // Fastify's own "too large" names the JSON limit; this one names the file limit.
      if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new QupmError('INVALID_ARGUMENT', ATTACHMENT_MESSAGES.tooLarge);
      }
      throw error;
    });

    // Before the body is read: who, how often, whether they may post files in this channel at all, and whether
    // the size declared fits what is left of their quota.
    const beforeBody = async (request: FastifyRequest): Promise<void> => {
      const caller = await ctx.authenticate(request);
      const { id } = parse(idParams, request.params);
      parse(uploadQuery, request.query);
      await ctx.guards.uploads(request, caller.uid);
      const declared = Number(request.headers['content-length']);
      assertMayUpload(ctx, caller, id, Number.isNaN(declared) ? undefined : declared);
    };

    scope.post('/api/channels/:id/attachments', { onRequest: beforeBody }, async (request) => {
      const caller = await ctx.authenticate(request);
      const { id } = parse(idParams, request.params);
      const { name } = parse(uploadQuery, request.query);
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return uploadAttachment(ctx, caller, id, { name, bytes });
    });
  });

  app.get('/api/channels/:id/attachments/:attachmentId', async (request, reply) => {
    const caller = await ctx.authenticate(request);
    const { id, attachmentId } = parse(fileParams, request.params);
    await ctx.guards.documents(request, caller.uid);
    const { attachment, file } = openAttachment(ctx, caller, id, attachmentId);
    const size = await stat(file).then(
      (stats) => stats.size,
      () => null,
    );
    if (size === null) throw new QupmError('NOT_FOUND', ATTACHMENT_ACCESS_MESSAGES.noSuchFile);
    void reply.headers({ ...downloadHeaders(attachment), 'content-length': String(size) });
    return reply.send(createReadStream(file));
  });
}
