// users/{uid} and users/{uid}/FCMTokens: read by the owner (documents also by an admin), written by the owner
// through the profile and token bodies only.
import { QupmError } from '../../core/errors';
import type { PushTokenDoc, UserDoc } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { canReadUser, canWriteUser } from '../../core/permissions';
import type { ProfileChanges } from '../repo/users';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { ServerContext } from '../context';

const NOT_YOUR_DOCUMENT = 'You can only see your own account.';
const NOT_YOURS_TO_CHANGE = 'You can only change your own account.';
const NO_SUCH_USER = 'There is no such user.';
const NO_SUCH_TOKEN = 'There is no such device token.';

export type ServiceContext = Pick<ServerContext, 'db' | 'repos' | 'hub' | 'now'>;

export function readUser(ctx: ServiceContext, caller: Caller, uid: string): UserDoc {
  if (!canReadUser(caller, uid)) throw new QupmError('PERMISSION_DENIED', NOT_YOUR_DOCUMENT);
  const doc = ctx.repos.users.getDoc(uid);
  if (!doc) throw new QupmError('NOT_FOUND', NO_SUCH_USER);
  return doc;
}

/** Tells the user's open streams their document changed. */
export function publishUser(ctx: ServiceContext, uid: string): void {
  const user = ctx.repos.users.getDoc(uid);
  if (user) ctx.hub.publish({ uids: [uid] }, { type: 'user', data: { user } });
}

export function updateProfile(
  ctx: ServiceContext,
  caller: Caller,
  uid: string,
  changes: ProfileChanges,
): UserDoc {
  if (!canWriteUser(caller, uid)) throw new QupmError('PERMISSION_DENIED', NOT_YOURS_TO_CHANGE);
  const doc = write(ctx.db, () => {
    if (!ctx.repos.users.updateProfile(uid, changes)) throw new QupmError('NOT_FOUND', NO_SUCH_USER);
    return ctx.repos.users.getDoc(uid);
  });
  if (!doc) throw new QupmError('NOT_FOUND', NO_SUCH_USER);
  ctx.hub.publish({ uids: [uid] }, { type: 'user', data: { user: doc } });
  return doc;
}

function requireOwnTokens(caller: Caller, uid: string): void {
  if (!canWriteUser(caller, uid)) {
    throw new QupmError('PERMISSION_DENIED', 'You can only see and change the devices of your own account.');
  }
}

export function listTokens(
  ctx: ServiceContext,
  caller: Caller,
  uid: string,
  query: { token?: string; status?: 'active' },
): PushTokenDoc[] {
  requireOwnTokens(caller, uid);
  const tokens = ctx.repos.tokens.list(uid);
  // Every stored document is 'active'; the status filter is there for the spec §7 query shape.
  return query.token === undefined ? tokens : tokens.filter((doc) => doc.token === query.token);
}

/**
 * Saves this device's push token. The same token again answers the existing document; a new token for a device
 * replaces that device's document (one per user and device, also under concurrent calls: the write runs in one
 * immediate transaction over a unique index).
 */
export function addToken(
  ctx: ServiceContext,
  caller: Caller,
  uid: string,
  input: Omit<PushTokenDoc, 'id' | 'createdAt' | 'lastUsed' | 'status'>,
): PushTokenDoc {
  requireOwnTokens(caller, uid);
  return write(ctx.db, () => {
    const existing = ctx.repos.tokens.findByToken(uid, input.token);
    if (existing && existing.deviceId === input.deviceId) return existing;
    const now = ctx.now();
    const doc: PushTokenDoc = {
      id: newDocumentId(),
      token: input.token,
      deviceId: input.deviceId,
      createdAt: now,
      lastUsed: now,
      status: 'active',
      platform: input.platform,
      userAgent: input.userAgent,
    };
    // A browser's push token belongs to whoever uses it now: the previous account stops receiving its pushes.
    ctx.repos.tokens.replace(uid, doc);
    return doc;
  });
}

export function touchToken(ctx: ServiceContext, caller: Caller, uid: string, id: string): PushTokenDoc {
  requireOwnTokens(caller, uid);
  const doc = write(ctx.db, () => {
    if (!ctx.repos.tokens.touch(uid, id, ctx.now())) throw new QupmError('NOT_FOUND', NO_SUCH_TOKEN);
    return ctx.repos.tokens.get(uid, id);
  });
  if (!doc) throw new QupmError('NOT_FOUND', NO_SUCH_TOKEN);
  return doc;
}

/** Deletes a token document; deleting one that is already gone succeeds too (as Firestore's delete does). */
export function deleteToken(ctx: ServiceContext, caller: Caller, uid: string, id: string): void {
  requireOwnTokens(caller, uid);
  write(ctx.db, () => ctx.repos.tokens.delete(uid, id));
}
