// Profile pictures on the embedded server: a person sets, replaces or removes their own face (the bytes sniffed with
// file-type: only the image types of core/photos.ts, at most 512 KB); anyone holding a face's URL reads it. The URL
// carries the photo's id, new with every upload, so it is cached for good and a change is a new URL: every window
// sees it at once through the live change of the person's document and of each channel they are in.
import { fileTypeFromBuffer } from 'file-type/core';
import { ERROR_WORDS, QupmError } from '../../core/errors';
import type { UserDoc } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { canWriteUser } from '../../core/permissions';
import { checkPhoto, PHOTO_MAX_BYTES, PHOTO_MESSAGES } from '../../core/photos';
import type { ServiceContext } from '../context';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { StoredPhoto } from '../repo/photos';
import { publishChannel } from './channels';
import { publishUser } from './users';

function assertOwnPhoto(caller: Caller, uid: string): void {
  if (!canWriteUser(caller, uid)) throw new QupmError('PERMISSION_DENIED', PHOTO_MESSAGES.notYours);
}

/**
 * Before the bytes are read: only the person themself, and a declared size (Content-Length) within the limit, so a
 * huge file is refused without receiving it.
 */
export function assertMaySetPhoto(caller: Caller, uid: string, declaredBytes: number | undefined): void {
  assertOwnPhoto(caller, uid);
  if (declaredBytes !== undefined && Number.isSafeInteger(declaredBytes) && declaredBytes > PHOTO_MAX_BYTES) {
    throw new QupmError('INVALID_ARGUMENT', PHOTO_MESSAGES.tooLarge);
  }
}

/** The person's document and every channel they are in, to every window that shows them. */
function publishFace(ctx: ServiceContext, uid: string): void {
  publishUser(ctx, uid);
  for (const channel of ctx.repos.channels.listFor(uid)) publishChannel(ctx, channel);
}

/** Sets (or replaces) the caller's face; answers their document with its new URL. */
export async function setPhoto(
  ctx: ServiceContext,
  caller: Caller,
  uid: string,
  bytes: Uint8Array,
): Promise<UserDoc> {
  assertOwnPhoto(caller, uid);
  // Sniffed only when the size is fine (nothing to sniff in an empty body, nothing to keep in a huge one).
  const sniffable = bytes.length > 0 && bytes.length <= PHOTO_MAX_BYTES;
  const sniffed = sniffable ? (await fileTypeFromBuffer(bytes))?.mime : undefined;
  const checked = checkPhoto({ size: bytes.length, sniffedType: sniffed });
  if (!checked.ok) throw new QupmError('INVALID_ARGUMENT', PHOTO_MESSAGES[checked.problem]);
  const photo: StoredPhoto = {
    id: newDocumentId(),
    uid,
    contentType: checked.contentType,
    bytes: Buffer.from(bytes),
    createdAt: ctx.now(),
  };
  const doc = write(ctx.db, () => {
    if (!ctx.repos.users.exists(uid)) throw new QupmError('NOT_FOUND', ERROR_WORDS.noSuchUser);
    ctx.repos.photos.put(photo);
    return ctx.repos.users.getDoc(uid);
  });
  if (!doc) throw new QupmError('NOT_FOUND', ERROR_WORDS.noSuchUser);
  publishFace(ctx, uid);
  return doc;
}

/** Removes the caller's face (initials from then on); one who had none changes nothing. */
export function removePhoto(ctx: ServiceContext, caller: Caller, uid: string): UserDoc {
  assertOwnPhoto(caller, uid);
  const { doc, removed } = write(ctx.db, () => ({
    removed: ctx.repos.photos.delete(uid),
    doc: ctx.repos.users.getDoc(uid),
  }));
  if (!doc) throw new QupmError('NOT_FOUND', ERROR_WORDS.noSuchUser);
  if (removed) publishFace(ctx, uid);
  return doc;
}

/** A face by its id, to anyone holding its URL (the id is not guessable: 20 random letters and digits). */
export function readPhoto(ctx: Pick<ServiceContext, 'repos'>, photoId: string): StoredPhoto {
  const photo = ctx.repos.photos.get(photoId);
  if (!photo) throw new QupmError('NOT_FOUND', PHOTO_MESSAGES.noSuchPhoto);
  return photo;
}
