// The callables as deployed: functions/'s built lib/ in the Functions emulator, spoken to over HTTP in Firebase's
// callable protocol (POST {"data": …} with a bearer ID token from the Auth emulator; {"result": …} or
// {"error": {status, message}}), their data in the Firestore emulator. Each error kind a person can meet is
// answered with its own status and HTTP code, with a message and no stack trace; never INTERNAL.
import { newDocumentId } from '../../core/ids';
import { call, emulators, makeAdmin, result, signUp } from './support/emulators';
import type { Account, CallableAnswer } from './support/emulators';

const DAY_MS = 24 * 60 * 60 * 1000;

let admin: Account;
let consultant: Account;
let member: Account;
let channelId: string;
let invitationId: string;

/** An error answer as the protocol has it: the status, its HTTP code, a message for a person, nothing internal. */
function expectError(answer: CallableAnswer, status: string, httpStatus: number): void {
  expect(answer.body.error?.status).toBe(status);
  expect(answer.status).toBe(httpStatus);
  expect(answer.body.result).toBeUndefined();
  expect(answer.body.error?.message).toEqual(expect.any(String));
  expect(answer.body.error?.message).not.toMatch(/\n\s+at |INTERNAL|Error:/);
}

beforeAll(async () => {
  admin = await makeAdmin(await signUp('admin'));
  consultant = await signUp('consultant', 'Dana Consultant');
  member = await signUp('member', 'Morgan Member');
  // An admin makes the consultant (spec §6): the uid is Firebase Auth's, 28 characters.
  await result('admin_set_consultant', { uid: consultant.uid, isOwner: true }, admin.idToken);
  const channel = await result<{ id: string }>(
    'create_channel',
    { channelId: `smoke-${Date.now()}`, title: 'Smoke test' },
    consultant.idToken,
  );
  channelId = channel.id;
  const invitation = await result<{ id: string }>(
    'create_invitation',
    { channelId, passes: 1, credits: 2, expiresAt: Date.now() + DAY_MS },
    consultant.idToken,
  );
  invitationId = invitation.id;
  await result('accept_invitation', { invitationId }, member.idToken);
});

describe('a callable over HTTP', () => {
  it('answers its result as {"result": …}', async () => {
    const answer = await call('check_channel_permissions', { channel_id: channelId }, member.idToken);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: { permissions: { isOwner: false, canMessage: true } } });
  });

  it('answers the same result as one server-sent event when the caller accepts a stream', async () => {
    const { functionsUrl, projectId } = emulators();
    const answer = await fetch(`${functionsUrl}/${projectId}/us-central1/check_channel_permissions`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        Authorization: `Bearer ${consultant.idToken}`,
      },
      body: JSON.stringify({ data: { channel_id: channelId } }),
    });
    expect(answer.status).toBe(200);
    const events = (await answer.text()).split('\n\n').filter((event) => event.startsWith('data: '));
    expect(events.map((event) => JSON.parse(event.slice('data: '.length)) as unknown)).toEqual([
      { result: { permissions: { isOwner: true, canMessage: true } } },
    ]);
  });

  // The emulator does not check an ID token's signature (production does): a token that is no token stands for
  // a forged one here.
  it('answers UNAUTHENTICATED (401) without a session, and with a token that is not one', async () => {
    expectError(await call('check_channel_permissions', { channel_id: channelId }), 'UNAUTHENTICATED', 401);
    expectError(
      await call('check_channel_permissions', { channel_id: channelId }, 'not.a.token'),
      'UNAUTHENTICATED',
      401,
    );
  });

  it('answers INVALID_ARGUMENT (400) naming what is wrong, for a bad payload and for a request that is no call', async () => {
    const bad = await call('create_channel', { channelId: 'Not A Handle!', title: '' }, consultant.idToken);
    expectError(bad, 'INVALID_ARGUMENT', 400);
    expect(bad.body.error?.message).toMatch(/channelId/);
    // Not the protocol: no "data" field, a body that is not JSON, a GET.
    expectError(
      await call('check_channel_permissions', null, member.idToken, {
        body: JSON.stringify({ channel_id: channelId }),
      }),
      'INVALID_ARGUMENT',
      400,
    );
    expectError(
      await call('check_channel_permissions', null, member.idToken, {
        body: 'hello',
        headers: { 'Content-Type': 'text/plain' },
      }),
      'INVALID_ARGUMENT',
      400,
    );
    const { functionsUrl, projectId } = emulators();
    const get = await fetch(`${functionsUrl}/${projectId}/us-central1/check_channel_permissions`);
    expect(get.status).toBe(400);
    expect(await get.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: 'Bad Request' } });
  });

  it('answers PERMISSION_DENIED (403) to a member acting as the owner, and to a non-admin on admin callables', async () => {
    expectError(
      await call(
        'create_invitation',
        { channelId, passes: 0, credits: 0, expiresAt: Date.now() + DAY_MS },
        member.idToken,
      ),
      'PERMISSION_DENIED',
      403,
    );
    expectError(await call('admin_list_users', {}, consultant.idToken), 'PERMISSION_DENIED', 403);
  });

  it('answers FAILED_PRECONDITION (400) to a second accept of a single-use invitation', async () => {
    const latecomer = await signUp('latecomer');
    expectError(
      await call('accept_invitation', { invitationId }, latecomer.idToken),
      'FAILED_PRECONDITION',
      400,
    );
  });

  it('answers NOT_FOUND (404) for an invitation that does not exist', async () => {
    expectError(
      await call('get_invitation', { invitationId: 'A'.repeat(20) }, member.idToken),
      'NOT_FOUND',
      404,
    );
  });

  it('lets an admin make a consultant by the Firebase Auth uid and take it back', async () => {
    const someone = await signUp('someone');
    expect(someone.uid).not.toMatch(/^[A-Za-z0-9]{20}$/);
    await result('admin_set_consultant', { uid: someone.uid, isOwner: true }, admin.idToken);
    const { users } = await result<{ users: { uid: string; isOwner: boolean }[] }>(
      'admin_list_users',
      {},
      admin.idToken,
    );
    expect(users.find((user) => user.uid === someone.uid)?.isOwner).toBe(true);
    await result('admin_set_consultant', { uid: someone.uid, isOwner: false }, admin.idToken);
  });

  it('lets the consultant send the member an offer for a service by their Firebase Auth uid', async () => {
    const service = await result<{ id: string }>(
      'create_service',
      {
        title: 'Strategy session',
        description: '',
        durationMinutes: 60,
        priceCredits: 2,
        operationId: newDocumentId(),
      },
      consultant.idToken,
    );
    const offer = await result<{ userId: string; discountPercent: number; serviceId: string }>(
      'issue_offer',
      {
        channelId,
        userId: member.uid,
        serviceId: service.id,
        discountPercent: 10,
        expiresAt: Date.now() + DAY_MS,
      },
      consultant.idToken,
    );
    expect(offer).toMatchObject({ userId: member.uid, discountPercent: 10, serviceId: service.id });
  });
});
