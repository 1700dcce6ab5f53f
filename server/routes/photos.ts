// /api/users/:uid/photo (set, remove: the person themself) and /api/photos/:photoId (the bytes, to anyone holding
// the URL): server/services/photos.ts. The upload is a raw body as attachments' is (server/routes/attachments.ts).
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import { assertMaySetPhoto, readPhoto, removePhoto, setPhoto } from '../services/photos';

/** A year: the URL changes with the picture, so a browser never needs to ask again. */
const PHOTO_MAX_AGE_SECONDS = 31_536_000;

export const photoRoutes = (ctx: ServerContext) =>
  ({
    setPhoto: {
      beforeBody: ({ caller, params, request }) => {
        const declared = Number(request.headers['content-length']);
        assertMaySetPhoto(caller, params.uid, Number.isNaN(declared) ? undefined : declared);
      },
      handle: ({ caller, params, body }) =>
        setPhoto(ctx, caller, params.uid, Buffer.isBuffer(body) ? body : Buffer.alloc(0)),
    },
    removePhoto: { handle: ({ caller, params }) => removePhoto(ctx, caller, params.uid) },
    readPhoto: {
      handle: ({ params, request, reply }) => {
        const photo = readPhoto(ctx, params.photoId);
        const etag = `"${photo.id}"`;
        void reply.headers({
          'content-type': photo.contentType,
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'cache-control': `public, max-age=${PHOTO_MAX_AGE_SECONDS}, immutable`,
          etag,
        });
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        return reply.send(photo.bytes);
      },
    },
  }) satisfies Partial<RouteHandlers>;
