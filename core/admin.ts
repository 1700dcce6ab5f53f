// The admin section's rules (ARCHITECTURE.md: admins see users, roles and channels), for both backends: only the
// isAdmin claim opens it, admins write nothing but the consultant role, and never their own.
import { ERROR_WORDS, QupmError } from './errors';
import type { AdminChannel, AdminUser, UserDoc } from './model';
import type { Caller } from './permissions';
import { effectiveConId } from './users';
import type { JoinedChannel } from './users';

export const ADMIN_MESSAGES = {
  notAdmin: 'Only admins can do this.',
  ownRole: 'You cannot change your own role. Ask another admin.',
  noSuchUser: ERROR_WORDS.noSuchUser,
} as const;

/** spec §6: admin from the isAdmin claim of the identity token. */
export function assertAdmin(caller: Pick<Caller, 'isAdmin'>): void {
  if (!caller.isAdmin) throw new QupmError('PERMISSION_DENIED', ADMIN_MESSAGES.notAdmin);
}

/** Making or unmaking a consultant: an admin, on someone else (an admin cannot lock themself out by mistake). */
export function assertCanSetRole(caller: Pick<Caller, 'uid' | 'isAdmin'>, uid: string): void {
  assertAdmin(caller);
  if (caller.uid === uid) throw new QupmError('PERMISSION_DENIED', ADMIN_MESSAGES.ownRole);
}

/**
 * The user document after an admin made (true) or unmade (false) them a consultant: isOwner, and the
 * effectiveConId it implies (core/users.ts) from the channels they joined. Channels they own stay theirs.
 */
export function withRole(user: UserDoc, isOwner: boolean, joined: readonly JoinedChannel[]): UserDoc {
  return { ...user, isOwner, effectiveConId: effectiveConId({ uid: user.uid, isOwner }, joined) };
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The admin's user list: oldest account first (then uid). */
export function sortAdminUsers(users: readonly AdminUser[]): AdminUser[] {
  return [...users].sort((a, b) => a.createdAt - b.createdAt || byText(a.uid, b.uid));
}

/** The admin's channel list: oldest channel first (then id), as a person's own channel list. */
export function sortAdminChannels(channels: readonly AdminChannel[]): AdminChannel[] {
  return [...channels].sort(
    (a, b) => a.channel.createdAt - b.channel.createdAt || byText(a.channel.id, b.channel.id),
  );
}
