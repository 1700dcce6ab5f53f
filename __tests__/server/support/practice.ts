// What the practice's server tests share (before its routes exist): the demo world's people as callers
// of the running server's services (app.qupmContext, the context the routes will hand them), fresh operation
// ids, and reads of the ledger and the calendar straight from SQLite to check what the services say.
import { newDocumentId } from '../../../core/ids';
import type { Caller } from '../../../core/permissions';
import type { Balance } from '../../../core/model';
import { DEMO_EMAILS } from '../../../server/demo';
import type { DemoRole } from '../../../server/demo';
import { write } from '../../../server/db/database';
import type { ServerContext } from '../../../server/context';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../core/model';
import type { DemoIds, TestServer } from './testServer';
import { grantBalance } from '../../../server/services/ledger';

export const opId = (): string => newDocumentId();

/** The demo person `role` as the caller of a service. */
export function callerOf(ids: DemoIds, role: DemoRole): Caller {
  return { uid: ids.uid[role], email: DEMO_EMAILS[role], isAdmin: role === 'admin' };
}

export function contextOf(server: TestServer): ServerContext {
  return server.app.qupmContext;
}

/** users.credits / pass_count, read from the file. */
export function balanceOf(server: TestServer, uid: string): Balance {
  const row = server.query<{ credits: number; pass_count: number }>(
    'SELECT credits, pass_count FROM users WHERE uid = ?',
    uid,
  )[0];
  return { credits: row?.credits ?? NaN, passes: row?.pass_count ?? NaN };
}

/** The sum of a person's ledger entries, read from the file. */
export function ledgerSumOf(server: TestServer, uid: string): Balance {
  const row = server.query<{ credits: number | null; passes: number | null }>(
    'SELECT SUM(delta_credits) AS credits, SUM(delta_passes) AS passes FROM ledger WHERE uid = ?',
    uid,
  )[0];
  return { credits: row?.credits ?? 0, passes: row?.passes ?? 0 };
}

/** Every account whose ledger does not add up to its balance (none, when the ledger is whole). */
export function unbalanced(
  server: TestServer,
): Array<{ uid: string; credits: number; passes: number; sumCredits: number; sumPasses: number }> {
  return server.query(
    `SELECT u.uid, u.credits, u.pass_count AS passes,
       COALESCE(SUM(l.delta_credits), 0) AS sumCredits, COALESCE(SUM(l.delta_passes), 0) AS sumPasses
     FROM users u LEFT JOIN ledger l ON l.uid = u.uid
     GROUP BY u.uid HAVING u.credits != sumCredits OR u.pass_count != sumPasses`,
  );
}

export function count(server: TestServer, sql: string, ...params: unknown[]): number {
  return server.query<{ n: number }>(sql, ...params)[0]?.n ?? NaN;
}

/**
 * New clients of the consultant, straight into the file (accounts nobody signs in to, members of `channelId`),
 * each granted `credits` by the admin through the ledger. Answers them as callers.
 */
export function addClients(
  server: TestServer,
  ids: DemoIds,
  channelId: string,
  howMany: number,
  credits: number,
): Caller[] {
  const ctx = contextOf(server);
  const now = server.clock.now();
  const clients = Array.from({ length: howMany }, (_, i) => ({
    uid: newDocumentId(),
    email: `client${i}-${newDocumentId().toLowerCase()}@example.com`,
    isAdmin: false,
  }));
  write(ctx.db, () => {
    for (const client of clients) {
      ctx.repos.users.insert({
        uid: client.uid,
        email: client.email,
        passwordHash: '',
        displayName: `Client ${client.email.slice(6, 9)}`,
        notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
        createdAt: now,
      });
      ctx.repos.channels.addMember(channelId, client.uid, now);
    }
  });
  if (credits > 0) {
    for (const client of clients) {
      grantBalance(ctx, callerOf(ids, 'admin'), {
        userId: client.uid,
        credits,
        passes: 0,
        operationId: opId(),
      });
    }
  }
  return clients;
}
