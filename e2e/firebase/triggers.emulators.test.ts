// The background functions as deployed: the Auth trigger fires on a real sign-up in the Auth emulator, the
// Firestore triggers on real writes in the Firestore emulator (which calls the Functions emulator), and the
// scheduled functions are loaded with their schedules and run when their schedule fires (Cloud Scheduler's
// request, sent by hand: no scheduler runs offline). The missed-message email such a run writes carries an
// unsubscribe link, followed here as a mail client would, through Hosting's rewrite to its function.
import { UNSUBSCRIBE_MESSAGES } from '../../core/missedMail';
import { eventually } from '../../__tests__/support/eventually';
import {
  confirmAddress,
  emulators,
  listDocuments,
  makeAdmin,
  readDocument,
  result,
  signUp,
  writeDocument,
} from './support/emulators';
import type { Account } from './support/emulators';

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const SLOW = { timeoutMs: 30_000, everyMs: 250 };

interface FunctionTrigger {
  id: string;
  schedule?: { schedule: string; timeZone?: string | null; retryConfig?: { retryCount?: number | null } };
}

async function loadedFunctions(): Promise<FunctionTrigger[]> {
  const answer = await fetch(`${emulators().functionsUrl}/backends`);
  const { backends } = (await answer.json()) as { backends: { functionTriggers: FunctionTrigger[] }[] };
  return backends.flatMap((backend) => backend.functionTriggers);
}

/** What Cloud Scheduler does when a schedule fires: a request to the function (through the emulator's route). */
async function fireSchedule(name: string): Promise<number> {
  const { functionsUrl, projectId } = emulators();
  const answer = await fetch(
    `${functionsUrl}/functions/projects/${projectId}/triggers/us-central1-${name}-0`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
  );
  await answer.arrayBuffer();
  return answer.status;
}

describe('the Auth trigger', () => {
  it('creates users/{uid} for a new account, as a role-less person', async () => {
    const account = await signUp('newcomer', 'Nia Newcomer');
    await eventually(async () => {
      expect(await readDocument(`users/${account.uid}`)).toMatchObject({
        email: account.email,
        isOwner: false,
        credits: 0,
        passCount: 0,
      });
    }, SLOW);
  });
});

interface Channel {
  consultant: Account;
  member: Account;
  channelId: string;
  title: string;
}

/** A consultant's channel with one member, made through the callables as the app makes it. */
async function channelWithMember(who: string): Promise<Channel> {
  const admin = await makeAdmin(await signUp(`${who}-admin`));
  const consultant = await signUp(`${who}-consultant`, 'Dana Consultant');
  const member = await signUp(`${who}-member`, 'Morgan Member');
  await result('admin_set_consultant', { uid: consultant.uid, isOwner: true }, admin.idToken);
  const title = `${who} ${Date.now()}`;
  const { id: channelId } = await result<{ id: string }>(
    'create_channel',
    { channelId: `${who}-${Date.now()}`, title },
    consultant.idToken,
  );
  const invitation = await result<{ id: string }>(
    'create_invitation',
    { channelId, passes: 0, credits: 0, expiresAt: Date.now() + DAY_MS },
    consultant.idToken,
  );
  await result('accept_invitation', { invitationId: invitation.id }, member.idToken);
  return { consultant, member, channelId, title };
}

/** A message id as the app makes them (20 characters), unique in the run. */
const messageId = (letter: string) => letter.repeat(10) + String(Date.now()).slice(-10);

describe('the Firestore triggers', () => {
  let consultant: Account;
  let member: Account;
  let channelId: string;

  beforeAll(async () => {
    ({ consultant, member, channelId } = await channelWithMember('triggers'));
  });

  it('fans a new message out: the other member’s pending count, and the sender’s name as the backend derives it', async () => {
    const id = messageId('M');
    await writeDocument(`channels/${channelId}/messages/${id}`, {
      senderId: member.uid,
      senderName: 'someone else',
      text: 'Hello from the emulators',
      createdAt: new Date(),
    });
    await eventually(async () => {
      expect(await readDocument(`users/${consultant.uid}/pending/${channelId}`)).toMatchObject({ count: 1 });
    }, SLOW);
    await eventually(async () => {
      expect(await readDocument(`channels/${channelId}/messages/${id}`)).toMatchObject({
        senderName: 'Morgan Member',
      });
    }, SLOW);
    // The sender's own badge is not raised by their message.
    expect(await readDocument(`users/${member.uid}/pending/${channelId}`)).toBeNull();
  });
});

describe('the scheduled functions', () => {
  it('are loaded with their schedules, in UTC, with their retries', async () => {
    const schedules = Object.fromEntries(
      (await loadedFunctions())
        .filter((trigger) => trigger.schedule)
        .map((trigger) => [trigger.id, trigger.schedule]),
    );
    expect(Object.keys(schedules).sort()).toEqual([
      'us-central1-expire_booking_requests',
      'us-central1-missed_mail',
      'us-central1-prune_stale_tokens',
      'us-central1-prune_unsent_attachments',
    ]);
    expect(schedules).toMatchObject({
      'us-central1-prune_unsent_attachments': {
        schedule: 'every day 03:00',
        timeZone: 'Etc/UTC',
        retryConfig: { retryCount: 1 },
      },
      'us-central1-prune_stale_tokens': {
        schedule: 'every day 03:00',
        timeZone: 'Etc/UTC',
        retryConfig: { retryCount: 1 },
      },
      // Not retried: the next run, 5 minutes on, expires what this one missed.
      'us-central1-expire_booking_requests': {
        schedule: 'every 5 minutes',
        timeZone: 'Etc/UTC',
        retryConfig: { retryCount: 0 },
      },
      // A missed run is not retried: the next one, 5 minutes on, mails what it missed.
      'us-central1-missed_mail': {
        schedule: 'every 5 minutes',
        timeZone: 'Etc/UTC',
        retryConfig: { retryCount: 0 },
      },
    });
  });

  it('prune_stale_tokens removes every person’s push tokens unused for over 30 days, and only those', async () => {
    const first = await signUp('token-holder');
    const second = await signUp('token-holder');
    const stamp = Date.now();
    const token = (lastUsed: number) => ({
      token: `token-${lastUsed}`,
      deviceId: `device-${lastUsed}`,
      status: 'active',
      platform: 'web',
      userAgent: 'emulator test',
      createdAt: new Date(lastUsed - DAY_MS),
      lastUsed: new Date(lastUsed),
    });
    // Either side of the 30 days (core/pushTokens.ts, as on the embedded server), and two people's: the prune
    // queries every person's tokens at once.
    const unused = {
      [`users/${first.uid}/FCMTokens/days31x${stamp}`]: stamp - 31 * DAY_MS,
      [`users/${second.uid}/FCMTokens/days90x${stamp}`]: stamp - 90 * DAY_MS,
    };
    const used = {
      [`users/${first.uid}/FCMTokens/days29x${stamp}`]: stamp - 29 * DAY_MS,
      [`users/${second.uid}/FCMTokens/today${stamp}`]: stamp,
    };
    for (const [documentPath, lastUsed] of Object.entries({ ...unused, ...used }))
      await writeDocument(documentPath, token(lastUsed));

    expect(await fireSchedule('prune_stale_tokens')).toBe(200);
    const left = async (paths: string[]) =>
      (await Promise.all(paths.map(async (at) => [at, (await readDocument(at)) !== null]))).filter(
        ([, there]) => there,
      );
    expect(await left(Object.keys(unused))).toEqual([]);
    expect(await left(Object.keys(used))).toEqual(Object.keys(used).map((at) => [at, true]));
  });
});

describe('missed_mail, and the unsubscribe link of its email through Hosting', () => {
  let channel: Channel;
  let mail: { to: string; message: { subject: string; text: string }; headers: Record<string, string> };

  const settingsOf = async (account: Account) =>
    (
      (await readDocument(`users/${account.uid}`)) as {
        notificationSettings: { delivery: { channels: string[] } };
      }
    ).notificationSettings.delivery.channels;

  beforeAll(async () => {
    channel = await channelWithMember('mail');
    // The member confirmed their address and chose "Email me about messages I miss" (Settings → Notifications).
    await confirmAddress(channel.member);
    const profile = await readDocument(`users/${channel.member.uid}`);
    await writeDocument(`users/${channel.member.uid}`, {
      ...profile,
      notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app', 'email'] } },
    });
  });

  it('mails a member about a message they left unread for 10 minutes, when its schedule fires', async () => {
    await writeDocument(`channels/${channel.channelId}/messages/${messageId('L')}`, {
      senderId: channel.consultant.uid,
      senderName: 'Dana Consultant',
      text: 'The contract is ready for you.',
      createdAt: new Date(Date.now() - 11 * MINUTE_MS),
    });
    expect(await fireSchedule('missed_mail')).toBe(200);
    const mails = (await listDocuments('mail')).filter(({ data }) => data.to === channel.member.email);
    expect(mails).toHaveLength(1);
    mail = mails[0]?.data as typeof mail;
    expect(mail.message.subject).toBe(`1 unread message in ${channel.title}`);
    expect(mail.message.text).toContain('Dana Consultant: The contract is ready for you.');
    expect(mail.message.text).toContain(`/?channel=${channel.channelId}`);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // Nobody else of the channel wants email: the consultant is not mailed.
    expect((await listDocuments('mail')).filter(({ data }) => data.to === channel.consultant.email)).toEqual(
      [],
    );
  });

  it('unsubscribes through Hosting: the link asks, and the one-click POST turns the email off', async () => {
    const link = new URL(/^<(.+)>$/.exec(mail.headers['List-Unsubscribe'] ?? '')?.[1] ?? 'missing:');
    const onHosting = emulators().hostingUrl + link.pathname + link.search;
    const asked = await fetch(onHosting);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(UNSUBSCRIBE_MESSAGES.ask);
    expect(await settingsOf(channel.member)).toContain('email');

    const done = await fetch(onHosting, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(UNSUBSCRIBE_MESSAGES.done);
    expect(await settingsOf(channel.member)).toEqual(['push', 'in_app']);
  });
});
