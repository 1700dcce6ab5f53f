// Missed-message email on Firebase: the scheduled pass over the real Firestore repository on
// the in-memory Admin SDK fake writes mail/{id} documents in the Trigger Email extension's shape, once per channel
// an hour, not when read, muted, switched off or unconfirmed; and the one-click unsubscribe behind
// /api/mail/unsubscribe turns email off only on POST with a genuine token.
import type { NotificationSettings } from '../../core/model';
import { handleMissedMail, handleUnsubscribe } from '../src/handlers/missedMail';
import { functionsTest } from './support/functionsTest';
import { APP_ORIGIN } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { putMessage, putReadMarker } from './support/seed';
import { CHANNEL, EMAIL, NOW, UID, seededBackend } from './support/world';

const MINUTE = 60_000;
const WITH_EMAIL: NotificationSettings = {
  enabled: true,
  delivery: { channels: ['push', 'in_app', 'email'] },
};

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
  backend.accounts.set(UID.member, { email: EMAIL.member, displayName: 'Morgan Reyes', emailVerified: true });
  backend.accounts.set(UID.consultant, { email: EMAIL.consultant, displayName: 'Dana', emailVerified: true });
  backend.store.update(`users/${UID.member}`, { notificationSettings: WITH_EMAIL });
});
afterAll(() => functionsTest.cleanup());

let seq = 0;
function post(text: string, at = backend.clock.now, senderId: string = UID.consultant): string {
  const id = `Message${String(++seq).padStart(13, '0')}`;
  putMessage(backend.store, { id, channelId: CHANNEL, senderId, senderName: 'Dana', text, createdAt: at });
  return id;
}

/** The mail/{id} documents written so far. */
const mails = () =>
  backend.store
    .paths()
    .filter((path) => path.startsWith('mail/'))
    .map(
      (path) =>
        backend.store.get(path) as {
          to: string;
          message: { subject: string; text: string; html: string };
          headers: Record<string, string>;
        },
    );

const pass = (): Promise<number> => handleMissedMail(backend.deps);

describe('the missed_mail schedule', () => {
  it('writes one Trigger Email document 10 minutes after a message stays unread, with the summary and links', async () => {
    post('Can we talk tomorrow?\nSecond line', NOW);
    post('Also: the budget', NOW + 1000);
    backend.clock.now = NOW + 9 * MINUTE;
    expect(await pass()).toBe(0);
    backend.clock.now = NOW + 10 * MINUTE;
    expect(await pass()).toBe(1);
    const [mail] = mails();
    expect(mail?.to).toBe(EMAIL.member);
    expect(mail?.message.subject).toBe('2 unread messages in Strategy Studio');
    expect(mail?.message.text).toContain('Dana: Can we talk tomorrow?');
    expect(mail?.message.text).not.toContain('Second line');
    expect(mail?.message.text).toContain(`${APP_ORIGIN}/?channel=${CHANNEL}`);
    expect(mail?.message.html).toContain(`href="${APP_ORIGIN}/?channel=${CHANNEL}"`);
    expect(mail?.headers['List-Unsubscribe']).toMatch(
      new RegExp(
        `^<${APP_ORIGIN.replace(/\./g, '\\.')}/api/mail/unsubscribe\\?token=${UID.member}\\.[A-Za-z0-9_-]+>$`,
      ),
    );
    expect(mail?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // The state is admin-only and says what was covered; the same pass again writes nothing.
    expect(backend.store.get(`missedMail/${UID.member}_${CHANNEL}`)).toMatchObject({
      lastSentAt: NOW + 10 * MINUTE,
    });
    expect(await pass()).toBe(0);
  });

  it('writes nothing once the message is read, for a muted channel, with the switch off, or to an unconfirmed address', async () => {
    const id = post('Read in time', NOW);
    putReadMarker(backend.store, UID.member, CHANNEL, NOW, id);
    backend.clock.now = NOW + 10 * MINUTE;
    expect(await pass()).toBe(0);

    post('Muted', backend.clock.now);
    backend.store.set(`users/${UID.member}/channelPrefs/${CHANNEL}`, { mutedUntil: NOW + 5 * 60 * MINUTE });
    backend.clock.now += 10 * MINUTE;
    expect(await pass()).toBe(0);
    backend.store.delete(`users/${UID.member}/channelPrefs/${CHANNEL}`);

    backend.accounts.set(UID.member, { email: EMAIL.member, displayName: 'Morgan', emailVerified: false });
    post('Unconfirmed', backend.clock.now);
    backend.clock.now += 10 * MINUTE;
    expect(await pass()).toBe(0);

    backend.accounts.set(UID.member, { email: EMAIL.member, displayName: 'Morgan', emailVerified: true });
    backend.store.update(`users/${UID.member}`, {
      notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
    });
    post('Switched off', backend.clock.now);
    backend.clock.now += 10 * MINUTE;
    expect(await pass()).toBe(0);
    expect(mails()).toEqual([]);

    // Positive control: switched on again, the newest unread message is mailed (not the muted one).
    backend.store.update(`users/${UID.member}`, { notificationSettings: WITH_EMAIL });
    post('Now it counts', backend.clock.now);
    backend.clock.now += 10 * MINUTE;
    expect(await pass()).toBe(1);
    expect(mails()[0]?.message.text).not.toContain('Muted');
    expect(mails()[0]?.message.text).toContain('Now it counts');
  });

  it('writes at most one per channel an hour, and never about the sender’s own messages', async () => {
    backend.store.update(`users/${UID.consultant}`, { notificationSettings: WITH_EMAIL });
    post('One', NOW);
    backend.clock.now = NOW + 10 * MINUTE;
    expect(await pass()).toBe(1);
    post('Two', NOW + 20 * MINUTE);
    backend.clock.now = NOW + 69 * MINUTE;
    expect(await pass()).toBe(0);
    backend.clock.now = NOW + 70 * MINUTE;
    expect(await pass()).toBe(1);
    expect(mails().map((m) => m.to)).toEqual([EMAIL.member, EMAIL.member]);
  });
});

describe('mail_unsubscribe', () => {
  async function token(): Promise<string> {
    post('Hello', NOW);
    backend.clock.now = NOW + 10 * MINUTE;
    await pass();
    const header = mails()[0]?.headers['List-Unsubscribe'] ?? '';
    return new URL(header.slice(1, -1)).searchParams.get('token') ?? '';
  }
  const channels = () =>
    (backend.store.get(`users/${UID.member}`)?.notificationSettings as NotificationSettings).delivery
      .channels;

  it('asks on GET and turns email off on POST with the one-click body', async () => {
    const good = await token();
    const asked = await handleUnsubscribe(backend.deps, { method: 'GET', token: good, body: undefined });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(channels()).toContain('email');
    const done = await handleUnsubscribe(backend.deps, {
      method: 'POST',
      token: good,
      body: { 'List-Unsubscribe': 'One-Click' },
    });
    expect(done.status).toBe(200);
    expect(channels()).toEqual(['push', 'in_app']);
  });

  it('refuses a forged token and a POST without the one-click body, changing nothing', async () => {
    const good = await token();
    const [, signature = ''] = good.split('.');
    for (const bad of [`${UID.consultant}.${signature}`, 'garbled', `${good}x`, undefined]) {
      const res = await handleUnsubscribe(backend.deps, {
        method: 'POST',
        token: bad,
        body: 'List-Unsubscribe=One-Click',
      });
      expect(res.status).toBe(400);
      expect(res.html).toContain('This unsubscribe link is not valid.');
    }
    const noBody = await handleUnsubscribe(backend.deps, { method: 'POST', token: good, body: {} });
    expect(noBody.status).toBe(400);
    expect(channels()).toContain('email');
  });
});
