// The admin section (isAdmin claim only): every user with their role, every channel, and the one write admins
// have: making or unmaking a consultant (core/admin.ts decides).
import {
  ADMIN_MESSAGES,
  assertAdmin,
  assertCanSetRole,
  sortAdminChannels,
  sortAdminUsers,
} from '../../core/admin';
import { QupmError } from '../../core/errors';
import type { AdminChannel, AdminUser } from '../../core/model';
import type { Caller } from '../../core/permissions';
import { write } from '../db/database';
import type { ServiceContext } from '../context';
import { publishUser } from './users';

export function listUsers(ctx: ServiceContext, caller: Caller): AdminUser[] {
  assertAdmin(caller);
  return sortAdminUsers(ctx.repos.users.listAdmin());
}

export function listChannels(ctx: ServiceContext, caller: Caller): AdminChannel[] {
  assertAdmin(caller);
  return sortAdminChannels(
    ctx.repos.channels.listAll().map((channel) => ({
      channel,
      ownerName: ctx.repos.users.publicName(channel.ownerId),
      messageCount: ctx.repos.messages.count(channel.id),
    })),
  );
}

/** Makes (true) or unmakes (false) a consultant; the channels they own stay theirs. Streams their document. */
export function setConsultant(ctx: ServiceContext, caller: Caller, uid: string, isOwner: boolean): AdminUser {
  assertCanSetRole(caller, uid);
  const user = write(ctx.db, () => {
    if (!ctx.repos.users.setOwner(uid, isOwner)) throw new QupmError('NOT_FOUND', ADMIN_MESSAGES.noSuchUser);
    return ctx.repos.users.getAdmin(uid);
  });
  if (!user) throw new QupmError('NOT_FOUND', ADMIN_MESSAGES.noSuchUser);
  publishUser(ctx, uid);
  return user;
}
