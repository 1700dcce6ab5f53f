// The demo world of ARCHITECTURE.md ("Wire formats"), created on the first start of an empty database unless
// demo is off: a consultant with two channels, a few messages in each and read markers behind their unread
// counts; a member, a visitor who belongs to no channel, an admin (the four sign-ins, password qupm-demo); two
// more clients in the second channel (accounts without a published password); pending, open, expired and used
// invitations; active offers (one ending within a day) and an expired one.
import type { ChatMessage, NotificationSettings } from '../core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../core/model';
import { invitePath } from '../core/paths';
import type { PasswordHasher } from './auth/passwords';
import { write } from './db/database';
import type { Db } from './db/database';
import { newDocumentId, newSecret } from './ids';
import { LEDGER_IDS } from '../core/ledger';
import { moveBalance } from './services/ledger';
import type { Repos } from './repo';

export const DEMO_PASSWORD = 'qupm-demo';
export const DEMO_EMAILS = {
  consultant: 'consultant@qupm.demo',
  member: 'member@qupm.demo',
  visitor: 'visitor@qupm.demo',
  admin: 'admin@qupm.demo',
} as const;
export type DemoRole = keyof typeof DEMO_EMAILS;

/** Growth Clinic's other clients: real accounts, but nobody signs in as them (their password is never shown). */
const DEMO_CLIENTS = {
  priya: { email: 'priya@qupm.demo', displayName: 'Priya Shah', nickname: 'Priya' },
  leo: { email: 'leo@qupm.demo', displayName: 'Leo Martins' },
} as const;

/** Marks a database that has had its first start (with or without the demo world). */
const CREATED_AT_SETTING = 'created_at';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const PUSH_ON: NotificationSettings = DEFAULT_NOTIFICATION_SETTINGS;

/**
 * Records the first start; on it, and only on it, creates the demo world when `demo` is on. Returns whether it
 * created the world.
 */
export async function prepareFirstStart(
  db: Db,
  repos: Repos,
  passwords: PasswordHasher,
  options: { demo: boolean; now: number },
): Promise<boolean> {
  if (repos.settings.get(CREATED_AT_SETTING) !== undefined) return false;
  if (!options.demo) {
    write(db, () => repos.settings.keep(CREATED_AT_SETTING, String(options.now)));
    return false;
  }
  // scrypt runs before the transaction: a write transaction never waits on the thread pool.
  const hashes = await Promise.all([
    ...Object.values(DEMO_EMAILS).map(() => passwords.hash(DEMO_PASSWORD)),
    ...Object.values(DEMO_CLIENTS).map(() => passwords.hash(newSecret())),
  ]);
  return write(db, () => {
    // Checked again inside the transaction: two processes starting together create one world.
    if (repos.settings.get(CREATED_AT_SETTING) !== undefined || repos.users.count() > 0) {
      repos.settings.keep(CREATED_AT_SETTING, String(options.now));
      return false;
    }
    repos.settings.keep(CREATED_AT_SETTING, String(options.now));
    seed(repos, hashes, options.now);
    return true;
  });
}

function seed(repos: Repos, hashes: string[], now: number): void {
  const [
    consultantHash = '',
    memberHash = '',
    visitorHash = '',
    adminHash = '',
    priyaHash = '',
    leoHash = '',
  ] = hashes;
  const uid = {
    consultant: newDocumentId(),
    member: newDocumentId(),
    visitor: newDocumentId(),
    admin: newDocumentId(),
    priya: newDocumentId(),
    leo: newDocumentId(),
  };
  const createdAt = now - 30 * DAY;
  // The demo's addresses are confirmed: the demo's invitations are theirs to accept.
  const emailVerifiedAt = createdAt;

  repos.users.insert({
    uid: uid.consultant,
    email: DEMO_EMAILS.consultant,
    passwordHash: consultantHash,
    displayName: 'Dana Whitfield',
    nickname: 'Dana',
    isOwner: true,
    domainId: 'whitfield-advisory',
    notificationSettings: PUSH_ON,
    emailVerifiedAt,
    createdAt,
  });
  repos.users.insert({
    uid: uid.member,
    email: DEMO_EMAILS.member,
    passwordHash: memberHash,
    displayName: 'Morgan Reyes',
    nickname: 'Morgan',
    notificationSettings: PUSH_ON,
    emailVerifiedAt,
    createdAt: createdAt + DAY,
  });
  repos.users.insert({
    uid: uid.visitor,
    email: DEMO_EMAILS.visitor,
    passwordHash: visitorHash,
    displayName: 'Sam Patel',
    notificationSettings: { enabled: false, delivery: { channels: [] } },
    emailVerifiedAt,
    createdAt: createdAt + 2 * DAY,
  });
  repos.users.insert({
    uid: uid.admin,
    email: DEMO_EMAILS.admin,
    passwordHash: adminHash,
    displayName: 'QuPM Admin',
    isAdmin: true,
    notificationSettings: PUSH_ON,
    emailVerifiedAt,
    createdAt: createdAt + 3 * DAY,
  });
  repos.users.insert({
    uid: uid.priya,
    passwordHash: priyaHash,
    ...DEMO_CLIENTS.priya,
    notificationSettings: PUSH_ON,
    emailVerifiedAt,
    createdAt: createdAt + 5 * DAY,
  });
  repos.users.insert({
    uid: uid.leo,
    passwordHash: leoHash,
    ...DEMO_CLIENTS.leo,
    notificationSettings: PUSH_ON,
    emailVerifiedAt,
    createdAt: createdAt + 6 * DAY,
  });

  const strategy = newDocumentId();
  const growth = newDocumentId();
  repos.channels.insert({
    id: strategy,
    channelId: 'strategy-studio',
    ownerId: uid.consultant,
    title: 'Strategy Studio',
    description: 'Pricing, positioning and planning decisions, worked through together.',
    createdAt: createdAt + HOUR,
  });
  repos.channels.insert({
    id: growth,
    channelId: 'growth-clinic',
    ownerId: uid.consultant,
    title: 'Growth Clinic',
    description: 'Weekly office hours on acquisition, retention and experiments.',
    createdAt: createdAt + 2 * HOUR,
  });
  repos.channels.addMember(strategy, uid.member, now - 20 * DAY);
  repos.channels.addMember(growth, uid.priya, now - 18 * DAY);
  repos.channels.addMember(growth, uid.leo, now - 12 * DAY);

  const say = (channelId: string, senderId: string, senderName: string, text: string, ago: number): void => {
    const message: ChatMessage = {
      id: newDocumentId(),
      channelId,
      senderId,
      senderName,
      text,
      createdAt: now - ago,
    };
    repos.messages.insert(message);
  };
  say(
    strategy,
    uid.consultant,
    'Dana',
    'Welcome to Strategy Studio, Morgan. Post the decision you want to work on this week and I will reply within a working day.',
    6 * DAY,
  );
  say(
    strategy,
    uid.member,
    'Morgan',
    'Thanks Dana! We are deciding whether to raise our base price by 15% before Q3. Monthly churn is 2.1%.',
    6 * DAY - 3 * HOUR,
  );
  say(
    strategy,
    uid.consultant,
    'Dana',
    'At 2.1% churn you have room. Test it on new sign-ups first: one cohort at the new price for four weeks, then compare conversion and churn.',
    5 * DAY,
  );
  say(
    strategy,
    uid.member,
    'Morgan',
    'Makes sense. I will set up the cohort and share the numbers on Friday.',
    5 * DAY - 2 * HOUR,
  );
  say(
    strategy,
    uid.consultant,
    'Dana',
    'I have added a 20% discount on your next session to Services. Use it for the pricing review.',
    2 * HOUR,
  );

  say(
    growth,
    uid.consultant,
    'Dana',
    'Growth Clinic is open every Tuesday at 10:00. Bring one metric you want to move.',
    10 * DAY,
  );
  say(
    growth,
    uid.consultant,
    'Dana',
    "This week's theme: onboarding emails. Which step loses most of your trial users?",
    3 * DAY,
  );
  say(
    growth,
    uid.priya,
    'Priya',
    'Trial-to-paid drops most at step 3, connecting the calendar. About 40% stop there.',
    3 * DAY - 4 * HOUR,
  );
  say(
    growth,
    uid.consultant,
    'Dana',
    'Reminder: every experiment needs a stop date before it starts. Write it down.',
    1 * DAY,
  );
  say(
    growth,
    uid.leo,
    'Leo Martins',
    'Stop date set for our onboarding test: two weeks from Monday. Can we review the email copy on Tuesday?',
    40 * 60 * 1000,
  );

  // What each person has read (the overview's unread counts) and what is pending behind their badge: the member
  // has not seen Dana's latest message, the consultant not Leo's. Each mark covers everything up to that time
  // (a ReadMark of id '').
  const readUntil = (who: string, channelId: string, ago: number): void =>
    repos.reads.put(who, channelId, { createdAt: now - ago, id: '' });
  readUntil(uid.member, strategy, 3 * HOUR);
  repos.pending.increment([uid.member], strategy, now - 2 * HOUR);
  readUntil(uid.consultant, strategy, HOUR);
  readUntil(uid.consultant, growth, 2 * HOUR);
  repos.pending.increment([uid.consultant], growth, now - 40 * 60 * 1000);
  readUntil(uid.priya, growth, DAY);
  readUntil(uid.leo, growth, 40 * 60 * 1000);

  const memberInvitation = newDocumentId();
  repos.invitations.insert({
    id: memberInvitation,
    channelId: strategy,
    consultantId: uid.consultant,
    inviteeEmail: DEMO_EMAILS.member,
    status: 'activated',
    passes: 1,
    credits: 3,
    expiresAt: now - 10 * DAY,
    acceptedBy: uid.member,
    createdAt: now - 21 * DAY,
  });
  repos.invitations.insert({
    id: newDocumentId(),
    channelId: growth,
    consultantId: uid.consultant,
    inviteeEmail: DEMO_EMAILS.visitor,
    status: 'pending',
    passes: 2,
    credits: 5,
    expiresAt: now + 7 * DAY,
    createdAt: now - DAY,
  });
  repos.invitations.insert({
    id: newDocumentId(),
    channelId: strategy,
    consultantId: uid.consultant,
    inviteeEmail: DEMO_EMAILS.visitor,
    status: 'pending',
    passes: 1,
    credits: 1,
    // Never accepted, now past its date: it reads as expired.
    expiresAt: now - 2 * DAY,
    createdAt: now - 16 * DAY,
  });
  // How Priya and Leo joined Growth Clinic, and an open link for anyone Dana shares it with.
  const activated: Array<{
    who: 'member' | 'priya' | 'leo';
    invitationId: string;
    credits: number;
    at: number;
  }> = [{ who: 'member', invitationId: memberInvitation, credits: 3, at: now - 20 * DAY }];
  for (const [who, ago] of [
    ['priya', 19],
    ['leo', 13],
  ] as const) {
    const invitationId = newDocumentId();
    activated.push({ who, invitationId, credits: 2, at: now - (ago - 1) * DAY });
    repos.invitations.insert({
      id: invitationId,
      channelId: growth,
      consultantId: uid.consultant,
      inviteeEmail: DEMO_CLIENTS[who].email,
      status: 'activated',
      passes: 1,
      credits: 2,
      expiresAt: now - (ago - 7) * DAY,
      acceptedBy: uid[who],
      createdAt: now - ago * DAY,
    });
  }
  repos.invitations.insert({
    id: newDocumentId(),
    channelId: growth,
    consultantId: uid.consultant,
    status: 'pending',
    passes: 1,
    credits: 0,
    expiresAt: now + 14 * DAY,
    createdAt: now - 3 * HOUR,
  });

  // What each activated invitation granted (a pass and its credits), as the ledger's entries: balances move only
  // through it (server/services/ledger.ts).
  for (const { who, invitationId, credits, at } of activated) {
    moveBalance(
      { repos },
      uid[who],
      LEDGER_IDS.invitation(invitationId),
      { kind: 'invitation', amount: { credits, passes: 1 }, invitationId },
      at,
    );
  }

  // Dana's services and weekly hours (Monday to Friday, 09:00–17:00 in London), for /services to book.
  const strategySession = newDocumentId();
  const checkIn = newDocumentId();
  const service = (
    id: string,
    title: string,
    description: string,
    durationMinutes: number,
    priceCredits: number,
  ) =>
    repos.catalog.insert({
      id,
      consultantId: uid.consultant,
      title,
      description,
      durationMinutes,
      priceCredits,
      status: 'active',
      createdAt: createdAt + HOUR,
      updatedAt: createdAt + HOUR,
    });
  service(
    strategySession,
    'Strategy session',
    'An hour on one decision: pricing, positioning or planning, with a written summary after.',
    60,
    3,
  );
  service(checkIn, 'Quick check-in', 'Half an hour to unblock one question.', 30, 1);
  repos.catalog.setAvailability({
    consultantId: uid.consultant,
    timeZone: 'Europe/London',
    hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
    updatedAt: createdAt + HOUR,
  });

  // Every demo offer names one of Dana's services, so "Use this offer" leads to its booking; no two read alike
  // (__tests__/server/demo.test.ts).
  repos.offers.insert({
    offeringId: newDocumentId(),
    userId: uid.member,
    channelId: strategy,
    serviceId: strategySession,
    consultantId: uid.consultant,
    discountPercent: 20,
    source: 'Pricing review',
    status: 'active',
    expiresAt: now + 14 * DAY,
    createdAt: now - 2 * HOUR,
  });
  repos.offers.insert({
    offeringId: newDocumentId(),
    userId: uid.member,
    channelId: strategy,
    serviceId: checkIn,
    consultantId: uid.consultant,
    discountPercent: 10,
    source: 'Welcome offer',
    status: 'active',
    expiresAt: now - 3 * DAY,
    createdAt: now - 20 * DAY,
  });
  // Ends within a day: the services screen's countdown has something to count.
  repos.offers.insert({
    offeringId: newDocumentId(),
    userId: uid.member,
    channelId: strategy,
    consultantId: uid.consultant,
    serviceId: checkIn,
    discountPercent: 15,
    source: 'Follow-up session',
    status: 'active',
    expiresAt: now + 20 * HOUR,
    createdAt: now - 4 * DAY,
  });
  repos.offers.insert({
    offeringId: newDocumentId(),
    userId: uid.priya,
    channelId: growth,
    serviceId: strategySession,
    consultantId: uid.consultant,
    discountPercent: 25,
    source: 'Onboarding review',
    status: 'active',
    expiresAt: now + 10 * DAY,
    createdAt: now - 2 * DAY,
  });
}

export interface DemoSignIn {
  role: DemoRole;
  email: string;
  password: string;
  note: string;
}

export interface DemoSummary {
  signIns: DemoSignIn[];
  /** Open invitations addressed to the visitor, to try /invite/{id}. */
  visitorInvitationIds: string[];
}

/** The demo sign-ins present in this database (none when it was created without the demo world). */
export function describeDemo(repos: Repos, now: number): DemoSummary {
  const notes: Record<DemoRole, string> = {
    consultant: 'owns Strategy Studio and Growth Clinic',
    member: 'member of Strategy Studio, credits and a pass, two active offers (one ends within a day)',
    visitor: 'no channel yet; invited to Growth Clinic',
    admin: 'isAdmin claim',
  };
  const signIns = (Object.keys(DEMO_EMAILS) as DemoRole[])
    .filter((role) => repos.users.findAccountByEmail(DEMO_EMAILS[role]) !== undefined)
    .map((role) => ({ role, email: DEMO_EMAILS[role], password: DEMO_PASSWORD, note: notes[role] }));
  const visitorInvitationIds =
    signIns.length > 0 ? repos.invitations.pendingIdsFor(DEMO_EMAILS.visitor, now) : [];
  return { signIns, visitorInvitationIds };
}

/** The sign-ins as a small text table for the console. */
export function formatDemo(summary: DemoSummary, origin: string): string {
  if (summary.signIns.length === 0) return '';
  const rows = summary.signIns.map((s) => [s.role, s.email, s.password, s.note]);
  const header = ['role', 'email', 'password', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    '  ' +
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = ['Demo sign-ins:', line(header), ...rows.map(line)];
  for (const id of summary.visitorInvitationIds)
    out.push(`  Invitation for ${DEMO_EMAILS.visitor}: ${origin}${invitePath(id)}`);
  return out.join('\n');
}
