// The background functions as deployed: the Auth trigger fires on a real sign-up in the Auth emulator, the
// Firestore triggers on real writes in the Firestore emulator (which calls the Functions emulator), and the
// scheduled functions are loaded with their schedules and run when their schedule fires (Cloud Scheduler's
// request, sent by hand: no scheduler runs offline).
import { eventually } from '../../__tests__/support/eventually';
import { emulators, makeAdmin, readDocument, result, signUp, writeDocument } from './support/emulators';
import type { Account } from './support/emulators';

const DAY_MS = 24 * 60 * 60 * 1000;
const SLOW = { timeoutMs: 30_000, everyMs: 250 };

interface FunctionTrigger {
  id: string;
  schedule?: { schedule: string; timeZone: string };
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

describe('the Firestore triggers', () => {
  let consultant: Account;
  let member: Account;
  let channelId: string;

  beforeAll(async () => {
    const admin = await makeAdmin(await signUp('trigger-admin'));
    consultant = await signUp('trigger-consultant', 'Dana Consultant');
    member = await signUp('trigger-member', 'Morgan Member');
    await result('admin_set_consultant', { uid: consultant.uid, isOwner: true }, admin.idToken);
    channelId = (
      await result<{ id: string }>(
        'create_channel',
        { channelId: `triggers-${Date.now()}`, title: 'Triggers' },
        consultant.idToken,
      )
    ).id;
    const invitation = await result<{ id: string }>(
      'create_invitation',
      { channelId, passes: 0, credits: 0, expiresAt: Date.now() + DAY_MS },
      consultant.idToken,
    );
    await result('accept_invitation', { invitationId: invitation.id }, member.idToken);
  });

  it('fans a new message out: the other member’s pending count, and the sender’s name as the backend derives it', async () => {
    const messageId = 'M'.repeat(10) + String(Date.now()).slice(-10);
    await writeDocument(`channels/${channelId}/messages/${messageId}`, {
      senderId: member.uid,
      senderName: 'someone else',
      text: 'Hello from the emulators',
      createdAt: new Date(),
    });
    await eventually(async () => {
      expect(await readDocument(`users/${consultant.uid}/pending/${channelId}`)).toMatchObject({ count: 1 });
    }, SLOW);
    await eventually(async () => {
      expect(await readDocument(`channels/${channelId}/messages/${messageId}`)).toMatchObject({
        senderName: 'Morgan Member',
      });
    }, SLOW);
    // The sender's own badge is not raised by their message.
    expect(await readDocument(`users/${member.uid}/pending/${channelId}`)).toBeNull();
  });
});

describe('the scheduled functions', () => {
  it('are loaded with their schedules', async () => {
    const schedules = Object.fromEntries(
      (await loadedFunctions())
        .filter((trigger) => trigger.schedule)
        .map((trigger) => [trigger.id, trigger.schedule?.schedule]),
    );
    expect(schedules).toEqual({
      'us-central1-prune_unsent_attachments': 'every day 03:00',
      'us-central1-prune_stale_tokens': 'every day 03:00',
      'us-central1-missed_mail': 'every 5 minutes',
    });
  });

  it('prune_stale_tokens removes a push token unused for 30 days and keeps a fresh one', async () => {
    const person = await signUp('token-holder');
    const stale = `users/${person.uid}/FCMTokens/stale${Date.now()}`;
    const fresh = `users/${person.uid}/FCMTokens/fresh${Date.now()}`;
    const token = (lastUsed: number) => ({
      token: `token-${lastUsed}`,
      deviceId: `device-${lastUsed}`,
      status: 'active',
      platform: 'web',
      userAgent: 'emulator test',
      createdAt: new Date(lastUsed),
      lastUsed: new Date(lastUsed),
    });
    await writeDocument(stale, token(Date.now() - 31 * DAY_MS));
    await writeDocument(fresh, token(Date.now() - DAY_MS));
    expect(await fireSchedule('prune_stale_tokens')).toBe(200);
    expect(await readDocument(stale)).toBeNull();
    expect(await readDocument(fresh)).not.toBeNull();
  });

  it('missed_mail runs to the end on the emulators', async () => {
    expect(await fireSchedule('missed_mail')).toBe(200);
  });
});
