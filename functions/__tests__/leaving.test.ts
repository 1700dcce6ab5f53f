// Leaving on Firebase: export_my_data answers the caller's own data and no secret or other
// account's; delete_my_account needs a sign-in of the last five minutes, refuses a consultant who owns channels,
// deletes the account's documents and its Firebase Auth account, and keeps the messages as from "A former
// member". Wrapped with firebase-functions-test (offline) over the real Firestore repository on the in-memory
// Admin SDK fake.
import { HttpsError } from 'firebase-functions/v2/https';
import { SESSION_ENDED_MESSAGE } from '../../core/errors';
import { FORMER_MEMBER_ID, FORMER_MEMBER_NAME } from '../../core/leaving';
import type { AccountExport } from '../../core/leaving';
import { RECENT_SIGN_IN_MESSAGE } from '../src/callable';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { putMessage, putPending, putToken } from './support/seed';
import { CHANNEL, EMAIL, NOW, UID, requestAs } from './support/world';
import type { Who } from './support/world';
import { seededBackend } from './support/world';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
  for (const who of Object.keys(UID) as Who[]) {
    backend.accounts.set(UID[who], { email: EMAIL[who], displayName: who });
  }
  putMessage(backend.store, {
    id: 'MessageMember0000001',
    channelId: CHANNEL,
    senderId: UID.member,
    senderName: 'Morgan',
    text: 'Mine',
    createdAt: NOW - 1000,
  });
  putMessage(backend.store, {
    id: 'MessageDana000000001',
    channelId: CHANNEL,
    senderId: UID.consultant,
    senderName: 'Dana',
    text: 'Theirs',
    createdAt: NOW - 500,
  });
  putToken(backend.store, {
    uid: UID.member,
    id: 'TokenMember000000001',
    token: 'fcm-SECRET',
    lastUsed: NOW,
  });
  putPending(backend.store, UID.member, CHANNEL, 2);
  backend.store.set(`users/${UID.member}/channelPrefs/${CHANNEL}`, { mutedUntil: NOW + 3_600_000 });
});
afterAll(() => functionsTest.cleanup());

/** A request as the member, signed in (or re-authenticated) `secondsAgo` seconds before now. */
const recently = (who: Who, secondsAgo = 10) =>
  requestAs(who, null, { auth_time: Math.floor(NOW / 1000) - secondsAgo });

const exportMyData = (request: ReturnType<typeof requestAs>) =>
  Promise.resolve(functionsTest.wrap(backend.fns.export_my_data)(request)) as Promise<AccountExport>;
const deleteMyAccount = (request: ReturnType<typeof requestAs>) =>
  Promise.resolve(functionsTest.wrap(backend.fns.delete_my_account)(request));

async function failure(call: Promise<unknown>): Promise<HttpsError> {
  const error = await call.then(
    (result) => {
      throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpsError);
  return error as HttpsError;
}

const paths = (prefix: string) => backend.store.paths().filter((path) => path.startsWith(prefix));

describe('export_my_data', () => {
  it("answers the caller's account, messages, offers, invitations, devices and mutes", async () => {
    const data = await exportMyData(requestAs('member', null));
    expect(data).toMatchObject({
      format: 'qupm-export',
      version: 1,
      exportedAt: new Date(NOW).toISOString(),
      account: { uid: UID.member, email: EMAIL.member },
      mutes: { [CHANNEL]: NOW + 3_600_000 },
      messages: [{ id: 'MessageMember0000001', channelTitle: 'Strategy Studio', text: 'Mine' }],
      devices: [{ id: 'TokenMember000000001', platform: 'web' }],
    });
    expect(data.offers.received.map((o) => o.offeringId).sort()).toEqual([
      'OfferExpired00000001',
      'OfferLater0000000001',
      'OfferSooner000000001',
      'OfferUsed00000000001',
    ]);
    const raw = JSON.stringify(data);
    expect(raw).not.toContain('fcm-SECRET');
    expect(raw).not.toContain('Theirs');
    expect(raw).not.toContain('OfferOfOther00000001');
  });

  it("lists a consultant's sent invitations and issued offers", async () => {
    const data = await exportMyData(requestAs('consultant', null));
    expect(data.invitations.sent.length).toBeGreaterThan(0);
    expect(data.offers.issued.length).toBeGreaterThan(0);
  });

  it('refuses a caller without a session', async () => {
    expect((await failure(exportMyData(requestAs(null, null)))).code).toBe('unauthenticated');
  });
});

describe('delete_my_account', () => {
  it('deletes the documents and the account, keeping the messages as from a former member', async () => {
    await expect(deleteMyAccount(recently('member'))).resolves.toEqual({ success: true });
    expect(paths(`users/${UID.member}`)).toEqual([]);
    expect(backend.store.get(`offers/OfferLater0000000001`)).toBeUndefined();
    expect(backend.store.get(`channels/${CHANNEL}`)?.members).toEqual([]);
    expect(backend.store.get(`channels/${CHANNEL}/messages/MessageMember0000001`)).toMatchObject({
      senderId: FORMER_MEMBER_ID,
      senderName: FORMER_MEMBER_NAME,
      text: 'Mine',
    });
    expect(backend.store.get(`channels/${CHANNEL}/messages/MessageDana000000001`)).toMatchObject({
      senderId: UID.consultant,
    });
    expect(backend.accounts.has(UID.member)).toBe(false);
  });

  it('needs a sign-in of the last five minutes', async () => {
    for (const request of [requestAs('member', null), recently('member', 6 * 60)]) {
      const error = await failure(deleteMyAccount(request));
      expect({ code: error.code, message: error.message }).toEqual({
        code: 'failed-precondition',
        message: RECENT_SIGN_IN_MESSAGE,
      });
    }
    expect(backend.store.get(`users/${UID.member}`)).toBeDefined();
    expect(backend.accounts.has(UID.member)).toBe(true);
  });

  it('refuses a consultant who owns channels, naming them, and deletes nothing', async () => {
    const before = backend.store.paths();
    const error = await failure(deleteMyAccount(recently('consultant')));
    expect(error.code).toBe('failed-precondition');
    expect(error.message).toMatch(/Strategy Studio.*Hand each one over/);
    expect(backend.store.paths()).toEqual(before);
    expect(backend.accounts.has(UID.consultant)).toBe(true);
  });

  it('answers a second call clearly, and refuses a caller without a session', async () => {
    await deleteMyAccount(recently('member'));
    // The embedded server's words and reason for an account already gone: its session went with it.
    expect((await failure(deleteMyAccount(recently('member')))).toJSON()).toEqual({
      status: 'UNAUTHENTICATED',
      message: SESSION_ENDED_MESSAGE,
      details: { reason: 'session-expired' },
    });
    expect((await failure(exportMyData(recently('member')))).message).toBe(SESSION_ENDED_MESSAGE);
    expect((await failure(deleteMyAccount(requestAs(null, null)))).code).toBe('unauthenticated');
  });
});

describe('the former member', () => {
  it("is no account: a session with its uid is refused, so no export gathers every departed person's messages", async () => {
    await deleteMyAccount(recently('member'));
    const asFormerMember = {
      data: null,
      auth: {
        uid: FORMER_MEMBER_ID,
        token: { email: 'someone@example.com', email_verified: true, auth_time: Math.floor(NOW / 1000) },
        rawToken: `fake-id-token:${FORMER_MEMBER_ID}:${NOW}`,
      },
      rawRequest: {},
    } as unknown as ReturnType<typeof requestAs>;
    // A users document under its uid, as a careless operator could leave one.
    backend.store.set(`users/${FORMER_MEMBER_ID}`, { email: 'someone@example.com' });
    for (const call of [exportMyData(asFormerMember), deleteMyAccount(asFormerMember)]) {
      expect((await failure(call)).code).toBe('unauthenticated');
    }
    expect(backend.store.get(`channels/${CHANNEL}/messages/MessageMember0000001`)).toMatchObject({
      senderId: FORMER_MEMBER_ID,
    });
  });
});

describe("delete_my_account and the person's files", () => {
  const object = (id: string) => `channels/${CHANNEL}/attachments/${id}`;
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

  it("deletes their uploads no message carries at once; sent files and other people's stay", async () => {
    putMessage(backend.store, {
      id: 'MessageWithFile00001',
      channelId: CHANNEL,
      senderId: UID.member,
      senderName: 'Morgan',
      text: '',
      createdAt: NOW - 100,
      attachment: {
        id: 'SentFile000000000001',
        kind: 'document',
        name: 'plan.pdf',
        contentType: 'application/pdf',
        size: 4,
      },
    });
    backend.bucket.put(object('SentFile000000000001'), png, 'application/pdf', NOW, {
      uploaderId: UID.member,
    });
    backend.bucket.put(object('Unsent00000000000001'), png, 'image/png', NOW, { uploaderId: UID.member });
    backend.bucket.put(object('Unsent00000000000002'), png, 'image/png', NOW, { uploaderId: UID.member });
    backend.bucket.put(object('OthersUnsent00000001'), png, 'image/png', NOW, { uploaderId: UID.consultant });

    await expect(deleteMyAccount(recently('member'))).resolves.toEqual({ success: true });
    expect([...backend.bucket.objects.keys()].sort()).toEqual([
      object('OthersUnsent00000001'),
      object('SentFile000000000001'),
    ]);
  });
});
