// Credits and passes as a ledger on the real server (server/services/ledger.ts): the demo's balances and an
// invitation's activation are ledger entries, the migration writes opening entries for balances from before,
// grants by a consultant or an admin (and who may not), a repeat of an operation, a person's history, and what
// a consultant's services earned. The sum of every person's entries is their balance, always.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrations, migrate } from '../../server/db/migrate';
import { earnings, grantBalance, listLedger } from '../../server/services/ledger';
import { confirmBooking, requestBooking } from '../../server/services/bookings';
import { listFreeSlots, listServices } from '../../server/services/catalog';
import { demoStreams } from './support/sse';
import { withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import {
  addClients,
  balanceOf,
  callerOf,
  contextOf,
  count,
  ledgerSumOf,
  opId,
  unbalanced,
} from './support/practice';
import { refusal } from '../support/refusal';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));
const live = demoStreams(() => ({ server, ids }));

const as = (role: 'consultant' | 'member' | 'visitor' | 'admin') => callerOf(ids, role);
const ctx = () => contextOf(server);

describe('the demo world', () => {
  it('holds its balances as ledger entries: each invitation activation, and every sum equal to its balance', () => {
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 3, passes: 1 });
    expect(listLedger(ctx(), as('member')).entries.map((e) => [e.kind, e.delta, e.balanceAfter])).toEqual([
      ['invitation', { credits: 3, passes: 1 }, { credits: 3, passes: 1 }],
    ]);
    expect(unbalanced(server)).toEqual([]);
  });
});

describe('activating an invitation', () => {
  it('writes its grant as one ledger entry with the balance, and a second activation writes nothing', async () => {
    const res = await server.request('POST', `/api/invitations/${ids.pendingInvitation}/accept`, {
      token: ids.token.visitor,
    });
    expect(res.statusCode).toBe(200);
    const activated = await server.request('POST', `/api/invitations/${ids.pendingInvitation}/activate`, {
      token: ids.token.visitor,
    });
    expect(activated.json()).toMatchObject({ user: { credits: 5, passCount: 2 } });
    expect(
      (
        await server.request('POST', `/api/invitations/${ids.pendingInvitation}/activate`, {
          token: ids.token.visitor,
        })
      ).statusCode,
    ).toBe(400);
    expect(listLedger(ctx(), as('visitor')).entries).toEqual([
      {
        id: `invitation-${ids.pendingInvitation}`,
        uid: ids.uid.visitor,
        kind: 'invitation',
        delta: { credits: 5, passes: 2 },
        amount: { credits: 5, passes: 2 },
        balanceAfter: { credits: 5, passes: 2 },
        createdAt: server.clock.now(),
        invitationId: ids.pendingInvitation,
      },
    ]);
    expect(unbalanced(server)).toEqual([]);
  });
});

describe('grantBalance', () => {
  it('lets the consultant grant to a client of theirs, once per operation id', () => {
    const operationId = opId();
    const input = {
      userId: ids.uid.member,
      credits: 4,
      passes: 1,
      note: 'For the pricing work',
      operationId,
    };
    const entry = grantBalance(ctx(), as('consultant'), input);
    expect(entry).toMatchObject({
      kind: 'grant',
      delta: { credits: 4, passes: 1 },
      byUid: ids.uid.consultant,
      note: 'For the pricing work',
    });
    expect(grantBalance(ctx(), as('consultant'), input)).toEqual(entry);
    expect(balanceOf(server, ids.uid.member)).toEqual({ credits: 7, passes: 2 });
    expect(ledgerSumOf(server, ids.uid.member)).toEqual({ credits: 7, passes: 2 });
  });

  it('lets an admin grant to anyone', () => {
    grantBalance(ctx(), as('admin'), { userId: ids.uid.visitor, credits: 2, passes: 0, operationId: opId() });
    expect(balanceOf(server, ids.uid.visitor)).toEqual({ credits: 2, passes: 0 });
  });

  it.each<[string, 'consultant' | 'member' | 'admin', () => string, string]>([
    [
      'a consultant granting to someone not their client',
      'consultant',
      () => ids.uid.visitor,
      'PERMISSION_DENIED',
    ],
    ['a client granting to someone', 'member', () => ids.uid.visitor, 'PERMISSION_DENIED'],
    ['an admin granting to themself', 'admin', () => ids.uid.admin, 'PERMISSION_DENIED'],
    ['a grant to nobody', 'admin', () => 'NoSuchUser0000000001', 'NOT_FOUND'],
  ])('refuses %s, writing nothing', (_label, role, target, status) => {
    const entries = count(server, 'SELECT COUNT(*) AS n FROM ledger');
    expect(
      refusal(() =>
        grantBalance(ctx(), as(role), { userId: target(), credits: 1, passes: 0, operationId: opId() }),
      ).status,
    ).toBe(status);
    expect(count(server, 'SELECT COUNT(*) AS n FROM ledger')).toBe(entries);
    expect(count(server, 'SELECT COUNT(*) AS n FROM operations')).toBe(0);
  });

  it('refuses an operation id already used for another grant', () => {
    const operationId = opId();
    grantBalance(ctx(), as('admin'), { userId: ids.uid.visitor, credits: 1, passes: 0, operationId });
    expect(
      refusal(() =>
        grantBalance(ctx(), as('admin'), { userId: ids.uid.visitor, credits: 9, passes: 0, operationId }),
      ).reason,
    ).toBe('operation-reused');
    expect(balanceOf(server, ids.uid.visitor)).toEqual({ credits: 1, passes: 0 });
  });

  it('tells the person, live, their balance changed', async () => {
    const stream = await live.open('member');
    grantBalance(ctx(), as('consultant'), {
      userId: ids.uid.member,
      credits: 1,
      passes: 0,
      operationId: opId(),
    });
    expect((await stream.next('user')).data).toMatchObject({ user: { credits: 4, passCount: 1 } });
  });
});

describe('listLedger', () => {
  it('shows a person their own history and an admin anyone’s, never someone else’s', () => {
    expect(listLedger(ctx(), as('admin'), ids.uid.member).balance).toEqual({ credits: 3, passes: 1 });
    expect(refusal(() => listLedger(ctx(), as('visitor'), ids.uid.member)).status).toBe('PERMISSION_DENIED');
  });
});

describe('earnings', () => {
  it('counts what the consultant’s services took, and the offers used', () => {
    const [client] = addClients(server, ids, ids.strategy, 1, 10);
    if (!client) throw new Error('no client');
    const strategy = listServices(ctx(), client, ids.uid.consultant).find(
      (s) => s.title === 'Strategy session',
    );
    if (!strategy) throw new Error('no service');
    const { slots } = listFreeSlots(ctx(), client, {
      serviceId: strategy.id,
      from: server.clock.now(),
      to: server.clock.now() + 7 * DAY,
    });
    const booking = requestBooking(ctx(), client, {
      serviceId: strategy.id,
      startsAt: slots[0]?.startsAt ?? 0,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      operationId: opId(),
    });
    expect(earnings(ctx(), as('consultant')).total).toEqual({ sessions: 0, credits: 0, passes: 0 });
    confirmBooking(ctx(), as('consultant'), { bookingId: booking.id, operationId: opId() });
    expect(earnings(ctx(), as('consultant')).services).toEqual([
      { serviceId: strategy.id, serviceTitle: 'Strategy session', sessions: 1, credits: 3, passes: 0 },
    ]);
    expect(unbalanced(server)).toEqual([]);
  });
});

describe('migration 011', () => {
  it('writes an opening entry for every balance from before the ledger, so that each sum equals its balance', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qupm-ledger-'));
    const db = new Database(path.join(dir, 'old.sqlite'));
    try {
      const migrations = readMigrations();
      migrate(
        db,
        migrations.filter((m) => m.version <= 10),
      );
      const insert = db.prepare(
        `INSERT INTO users (uid, email, password_hash, notification_settings, credits, pass_count, created_at)
         VALUES (?, ?, '', '{}', ?, ?, 0)`,
      );
      insert.run('withBoth', 'a@example.com', 7, 2);
      insert.run('withCredits', 'b@example.com', 3, 0);
      insert.run('withNothing', 'c@example.com', 0, 0);
      expect(
        migrate(
          db,
          migrations.filter((m) => m.version <= 11),
        ),
      ).toEqual([11]);
      const rows = db
        .prepare(
          `SELECT u.uid, u.credits, u.pass_count AS passes, SUM(l.delta_credits) AS sumCredits,
             SUM(l.delta_passes) AS sumPasses, COUNT(l.id) AS entries
           FROM users u LEFT JOIN ledger l ON l.uid = u.uid GROUP BY u.uid ORDER BY u.uid`,
        )
        .all();
      expect(rows).toEqual([
        { uid: 'withBoth', credits: 7, passes: 2, sumCredits: 7, sumPasses: 2, entries: 1 },
        { uid: 'withCredits', credits: 3, passes: 0, sumCredits: 3, sumPasses: 0, entries: 1 },
        { uid: 'withNothing', credits: 0, passes: 0, sumCredits: null, sumPasses: null, entries: 0 },
      ]);
      expect(() => db.prepare(`UPDATE ledger SET delta_credits = 99 WHERE uid = 'withBoth'`).run()).toThrow(
        /append-only/,
      );
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
