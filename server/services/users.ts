// users/{uid} and users/{uid}/FCMTokens: read by the owner (documents also by an admin), written by the owner
// through the profile and token bodies only.
import { ERROR_WORDS, QupmError } from '../../core/errors';
import type { PushTokenDoc, UserDoc } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { canReadUser, canWriteUser } from '../../core/permissions';
import { privateChannelAfterRename } from '../../core/privateChannels';
import { newTokenDoc, planTokenSave } from '../../core/pushTokens';
import type { ProfileChanges } from '../repo/users';
import { write } from '../db/database';
import { newDocumentId } from '../ids';
import type { ServiceContext } from '../context';
import { publishChannel } from './channels';

const NOT_YOUR_DOCUMENT = 'You can only see your own account.';
const NOT_YOURS_TO_CHANGE = 'You can only change your own account.';
const NO_SUCH_USER = ERROR_WORDS.noSuchUser;
const NO_SUCH_TOKEN = 'There is no such device token.';

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
  const { doc, renamed } = write(ctx.db, () => {
    if (!ctx.repos.users.updateProfile(uid, changes)) throw new QupmError('NOT_FOUND', NO_SUCH_USER);
    return { doc: ctx.repos.users.getDoc(uid), renamed: renamePrivateChannels(ctx, uid) };
  });
  if (!doc) throw new QupmError('NOT_FOUND', NO_SUCH_USER);
  ctx.hub.publish({ uids: [uid] }, { type: 'user', data: { user: doc } });
  // The other person's list (and an admin's) follows live: each renamed consultation is published anew.
  for (const id of renamed) {
    const channel = ctx.repos.channels.get(id);
    if (channel) publishChannel(ctx, channel);
  }
  return doc;
}

/**
 * Inside the profile's transaction: the private consultations of `uid` take the name they go by now
 * (core/privateChannels.ts privateChannelAfterRename). Answers the ids of those that changed.
 */
function renamePrivateChannels(ctx: ServiceContext, uid: string): string[] {
  const name = ctx.repos.users.publicName(uid);
  const renamed: string[] = [];
  for (const channel of ctx.repos.channels.listFor(uid)) {
    const after = privateChannelAfterRename(channel, uid, name);
    if (!after) continue;
    ctx.repos.leaving.renamePrivateChannel(channel.id, after.title, after.names);
    renamed.push(channel.id);
  }
  return renamed;
}

function requireOwnTokens(caller: Caller, uid: string): void {
  if (!canWriteUser(caller, uid)) {
    throw new QupmError('PERMISSION_DENIED', ERROR_WORDS.notYourDevices);
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
 * Saves this device's push token, the one owner of "one token document per device" on this backend: inside one
 * immediate transaction, core/pushTokens.ts planTokenSave answers the document there is for the same token on the
 * same device, or replaces whatever this user held for the device (spec §4: the replaced old token document is
 * deleted) and the same token under other accounts (a shared browser pushes only to whoever uses it now). The
 * unique index on (uid, device_id) backs it. The client keeps the answer.
 */
export function addToken(
  ctx: ServiceContext,
  caller: Caller,
  uid: string,
  input: Omit<PushTokenDoc, 'id' | 'createdAt' | 'lastUsed' | 'status'>,
  /** The session saving it (the access token's sid): its end deletes the document. */
  sessionId: string | null = null,
): PushTokenDoc {
  requireOwnTokens(caller, uid);
  return write(ctx.db, () => {
    const { keep, remove } = planTokenSave(
      uid,
      input,
      ctx.repos.tokens.related(uid, input.deviceId, input.token),
    );
    for (const doc of remove) ctx.repos.tokens.delete(doc.uid, doc.id);
    if (keep) {
      const { uid: _owner, ...doc } = keep;
      ctx.repos.tokens.linkSession(uid, doc.id, sessionId);
      return doc;
    }
    const doc = newTokenDoc(newDocumentId(), input, ctx.now());
    ctx.repos.tokens.insert(uid, doc);
    ctx.repos.tokens.linkSession(uid, doc.id, sessionId);
    return doc;
  });
}

export function touchToken(
  ctx: ServiceContext,
  caller: Caller,
  uid: string,
  id: string,
  sessionId: string | null = null,
): PushTokenDoc {
  requireOwnTokens(caller, uid);
  const doc = write(ctx.db, () => {
    if (!ctx.repos.tokens.touch(uid, id, ctx.now())) throw new QupmError('NOT_FOUND', NO_SUCH_TOKEN);
    ctx.repos.tokens.linkSession(uid, id, sessionId);
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
