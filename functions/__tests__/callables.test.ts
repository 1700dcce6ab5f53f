// The callables, wrapped with firebase-functions-test (offline) and run over the real Firestore repository on
// the in-memory Admin SDK fake: every session, validation and ownership branch, in that order (QUALITY.md).
import { logger } from 'firebase-functions';
import { HttpsError } from 'firebase-functions/v2/https';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { putInvitation, putPending } from './support/seed';
import { CHANNEL, EMAIL, INVITATION, NOW, UID, requestAs, seededBackend } from './support/world';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
});
afterAll(() => functionsTest.cleanup());

type Name = keyof TestBackend['fns'] &
  (
    | 'check_channel_permissions'
    | 'get_user_active_offers'
    | 'clear_pending_notifications'
    | 'get_invitation'
    | 'accept_invitation'
    | 'activate_invitation'
    | 'list_my_invitations'
  );

function call(name: Name, request: ReturnType<typeof requestAs>): Promise<unknown> {
  // A union of callables does not pick wrap()'s callable overload; each one of them does.
  const fn = backend.fns[name] as (typeof backend.fns)['check_channel_permissions'];
  return Promise.resolve(functionsTest.wrap(fn)(request));
}

/** The HttpsError a call failed with (the test fails if it succeeded). */
async function failure(name: Name, request: ReturnType<typeof requestAs>): Promise<HttpsError> {
  const error = await call(name, request).then(
    (result) => {
      throw new Error(`expected ${name} to fail, it answered ${JSON.stringify(result)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpsError);
  const httpsError = error as HttpsError;
  expect(httpsError.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  return httpsError;
}

const VALID_PAYLOADS: Record<Name, unknown> = {
  check_channel_permissions: { channel_id: CHANNEL },
  get_user_active_offers: null,
  clear_pending_notifications: { userId: UID.member },
  get_invitation: { invitationId: 'InvitePending0000001' },
  accept_invitation: { invitationId: 'InvitePending0000001' },
  activate_invitation: { invitationId: 'InviteAccepted000001' },
  list_my_invitations: null,
};

describe('every callable', () => {
  it.each(Object.keys(VALID_PAYLOADS) as Name[])(
    '%s refuses a caller without a session before reading anything',
    async (name) => {
      const reads = jest.spyOn(backend.deps.repo, 'getChannel');
      const error = await failure(name, requestAs(null, VALID_PAYLOADS[name]));
      expect(error.code).toBe('unauthenticated');
      expect(reads).not.toHaveBeenCalled();
    },
  );

  it.each(Object.keys(VALID_PAYLOADS) as Name[])('%s checks the session before the payload', async (name) => {
    const error = await failure(name, requestAs(null, { nonsense: true }));
    expect(error.code).toBe('unauthenticated');
  });

  it.each(Object.keys(VALID_PAYLOADS) as Name[])(
    '%s answers an unknown key as invalid-argument',
    async (name) => {
      const error = await failure(name, requestAs('member', { __proto__: null, sneaky: 'x' }));
      expect(error.code).toBe('invalid-argument');
    },
  );

  it('answers an unexpected failure as internal with a plain message, never the error itself', async () => {
    jest.spyOn(backend.deps.repo, 'getChannel').mockRejectedValue(new Error('disk on fire at /srv/x.ts:12'));
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const error = await failure('check_channel_permissions', requestAs('member', { channel_id: CHANNEL }));
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'internal',
      message: 'Something went wrong',
    });
    // The cause is kept for the project's logs, not the client.
    expect(logged).toHaveBeenCalledWith('Unexpected failure in a callable', expect.any(Error));
  });
});

describe('check_channel_permissions (spec §7)', () => {
  it.each([
    ['the owner', 'consultant', { canMessage: true, isOwner: true }],
    ['a member', 'member', { canMessage: true, isOwner: false }],
    ['anyone else', 'stranger', { canMessage: false, isOwner: false }],
    ['an admin, who reads but does not message', 'admin', { canMessage: false, isOwner: false }],
  ] as const)('answers %s from the stored channel', async (_label, who, permissions) => {
    await expect(call('check_channel_permissions', requestAs(who, { channel_id: CHANNEL }))).resolves.toEqual(
      {
        permissions,
      },
    );
  });

  it('never trusts the channel_owner_id of the payload', async () => {
    const result = await call(
      'check_channel_permissions',
      requestAs('stranger', { channel_id: CHANNEL, channel_owner_id: UID.stranger }),
    );
    expect(result).toEqual({ permissions: { canMessage: false, isOwner: false } });
  });

  it.each([
    ['no payload', null],
    ['no channel_id', {}],
    ['a channel_id that is no QuPM id', { channel_id: 'strategy-studio' }],
    ['a numeric channel_id', { channel_id: 42 }],
    ['an owner id over 128 characters', { channel_id: CHANNEL, channel_owner_id: 'x'.repeat(129) }],
  ])('refuses %s as invalid-argument', async (_label, data) => {
    const error = await failure('check_channel_permissions', requestAs('member', data));
    expect(error.code).toBe('invalid-argument');
    expect(error.message.length).toBeGreaterThan(0);
  });

  it('answers not-found for a channel that does not exist', async () => {
    const error = await failure(
      'check_channel_permissions',
      requestAs('member', { channel_id: 'NoSuchChannel0000001' }),
    );
    expect(error.code).toBe('not-found');
  });
});

describe('get_user_active_offers (spec §7)', () => {
  it("answers the caller's active offers, soonest to expire first, with exactly the spec's fields", async () => {
    const result = await call('get_user_active_offers', requestAs('member', null));
    expect(result).toStrictEqual({
      offers: [
        {
          offeringId: 'OfferSooner000000001',
          discountPercent: 15,
          source: 'consultant',
          channelId: CHANNEL,
          status: 'active',
          expiresAt: NOW + 2 * 86_400_000,
          createdAt: NOW - 86_400_000,
        },
        {
          offeringId: 'OfferLater0000000001',
          discountPercent: 20,
          source: 'consultant',
          channelId: CHANNEL,
          status: 'active',
          expiresAt: NOW + 14 * 86_400_000,
          createdAt: NOW - 86_400_000,
        },
      ],
    });
  });

  it('answers an empty list to someone without offers', async () => {
    await expect(call('get_user_active_offers', requestAs('consultant', {}))).resolves.toEqual({
      offers: [],
    });
  });

  it('accepts no payload at all', async () => {
    const result = (await call('get_user_active_offers', requestAs('stranger', undefined))) as {
      offers: unknown[];
    };
    expect(result.offers).toHaveLength(1);
  });

  it('refuses a payload with fields as invalid-argument', async () => {
    const error = await failure('get_user_active_offers', requestAs('member', { userId: UID.stranger }));
    expect(error.code).toBe('invalid-argument');
  });
});

describe('clear_pending_notifications (spec §7)', () => {
  beforeEach(() => {
    putPending(backend.store, UID.member, CHANNEL, 3);
    putPending(backend.store, UID.member, 'OtherChannel00000001', 1);
  });
  const pendingOf = (uid: string) =>
    backend.store.paths().filter((p) => p.startsWith(`users/${uid}/pending/`));

  it("clears the caller's own pending counts", async () => {
    await expect(
      call('clear_pending_notifications', requestAs('member', { userId: UID.member })),
    ).resolves.toEqual({ success: true });
    expect(pendingOf(UID.member)).toEqual([]);
  });

  it("refuses to clear someone else's as permission-denied, and clears nothing", async () => {
    const error = await failure('clear_pending_notifications', requestAs('stranger', { userId: UID.member }));
    expect(error.code).toBe('permission-denied');
    expect(pendingOf(UID.member)).toHaveLength(2);
  });

  it("lets an admin clear anyone's", async () => {
    await expect(
      call('clear_pending_notifications', requestAs('admin', { userId: UID.member })),
    ).resolves.toEqual({
      success: true,
    });
    expect(pendingOf(UID.member)).toEqual([]);
  });

  it('answers not-found for a user that does not exist', async () => {
    const error = await failure(
      'clear_pending_notifications',
      requestAs('admin', { userId: 'NoSuchUser0000000001' }),
    );
    expect(error.code).toBe('not-found');
  });

  it('takes the admin claim from the token only when it is exactly true', async () => {
    const error = await failure(
      'clear_pending_notifications',
      requestAs('stranger', { userId: UID.member }, { isAdmin: 'true' }),
    );
    expect(error.code).toBe('permission-denied');
  });

  it.each([
    ['no userId', {}],
    ['an empty userId', { userId: '' }],
    ['a numeric userId', { userId: 7 }],
    ['a userId over 128 characters', { userId: 'u'.repeat(129) }],
  ])('refuses %s as invalid-argument', async (_label, data) => {
    const error = await failure('clear_pending_notifications', requestAs('member', data));
    expect(error.code).toBe('invalid-argument');
  });
});

describe('get_invitation', () => {
  it('shows the invitee the invitation with its channel and consultant', async () => {
    const result = await call(
      'get_invitation',
      requestAs('stranger', { invitationId: 'InvitePending0000001' }),
    );
    expect(result).toStrictEqual({
      id: 'InvitePending0000001',
      channelId: CHANNEL,
      channelTitle: 'Strategy Studio',
      consultantId: UID.consultant,
      consultantName: 'Dana',
      inviteeEmail: EMAIL.stranger,
      status: 'pending',
      passes: 2,
      credits: 5,
      expiresAt: NOW + 7 * 86_400_000,
    });
  });

  it('reads a pending invitation past its date as expired', async () => {
    const result = await call(
      'get_invitation',
      requestAs('stranger', { invitationId: 'InviteExpired0000001' }),
    );
    expect(result).toMatchObject({ status: 'expired' });
  });

  it.each(['consultant', 'admin'] as const)('lets the %s read it', async (who) => {
    await expect(
      call('get_invitation', requestAs(who, { invitationId: 'InvitePending0000001' })),
    ).resolves.toMatchObject({ id: 'InvitePending0000001' });
  });

  it('refuses anyone it is not addressed to, with the reason the client words', async () => {
    const error = await failure(
      'get_invitation',
      requestAs('member', { invitationId: 'InvitePending0000001' }),
    );
    expect({ code: error.code, details: error.details }).toEqual({
      code: 'permission-denied',
      details: { reason: 'invitation-not-yours' },
    });
  });

  it('answers not-found for an invitation that does not exist', async () => {
    const error = await failure(
      'get_invitation',
      requestAs('stranger', { invitationId: 'NoSuchInvite00000001' }),
    );
    expect(error.code).toBe('not-found');
  });

  it.each([{ invitationId: 'short' }, { invitationId: 12 }, {}, { id: 'InvitePending0000001' }])(
    'refuses %j as invalid-argument',
    async (data) => {
      const error = await failure('get_invitation', requestAs('stranger', data));
      expect(error.code).toBe('invalid-argument');
    },
  );
});

describe('list_my_invitations (issue #12)', () => {
  it('lists the pending, unexpired invitations naming the caller, newest first, as get_invitation reads them', async () => {
    putInvitation(backend.store, {
      id: 'InviteNewer000000001',
      channelId: CHANNEL,
      consultantId: UID.consultant,
      inviteeEmail: EMAIL.stranger,
      status: 'pending',
      passes: 0,
      credits: 1,
      expiresAt: NOW + 2 * 86_400_000,
      createdAt: NOW - 60_000,
    });
    const stranger = requestAs('stranger', null);
    const listed = (await call('list_my_invitations', stranger)) as { invitations: Array<{ id: string }> };
    // Not the expired one, not the two accepted ones, not the link invitation that names nobody.
    expect(listed.invitations.map((i) => i.id)).toEqual(['InviteNewer000000001', INVITATION.pending]);
    expect(listed.invitations[1]).toStrictEqual(
      await call('get_invitation', requestAs('stranger', { invitationId: INVITATION.pending })),
    );
  });

  it('answers an empty list to someone invited to nothing, and to an account without an email', async () => {
    await expect(call('list_my_invitations', requestAs('member', null))).resolves.toEqual({
      invitations: [],
    });
    await expect(
      call('list_my_invitations', requestAs('stranger', null, { email: undefined })),
    ).resolves.toEqual({ invitations: [] });
  });
});

describe('accept_invitation', () => {
  const channelMembers = () => backend.store.get(`channels/${CHANNEL}`)?.members;

  it('accepts for the invitee, joins them to the channel and connects them to the consultant', async () => {
    const result = await call(
      'accept_invitation',
      requestAs('stranger', { invitationId: 'InvitePending0000001' }),
    );
    expect(result).toMatchObject({ status: 'accepted', acceptedBy: UID.stranger });
    expect(backend.store.get('invitations/InvitePending0000001')).toMatchObject({
      status: 'accepted',
      acceptedBy: UID.stranger,
    });
    expect(channelMembers()).toEqual([UID.member, UID.stranger]);
    expect(backend.store.get(`users/${UID.stranger}`)).toMatchObject({ effectiveConId: UID.consultant });
  });

  it('answers a second accept as failed-precondition invitation-used', async () => {
    await call('accept_invitation', requestAs('stranger', { invitationId: 'InvitePending0000001' }));
    const error = await failure(
      'accept_invitation',
      requestAs('stranger', { invitationId: 'InvitePending0000001' }),
    );
    expect({ code: error.code, details: error.details }).toEqual({
      code: 'failed-precondition',
      details: { reason: 'invitation-used' },
    });
  });

  it('lets only one of two simultaneous accepts through', async () => {
    const request = requestAs('newcomer', { invitationId: 'InviteOpen0000000001' });
    const outcomes = await Promise.allSettled([
      call('accept_invitation', request),
      call('accept_invitation', request),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(channelMembers()).toEqual([UID.member, UID.newcomer]);
  });

  it('refuses an expired invitation', async () => {
    const error = await failure(
      'accept_invitation',
      requestAs('stranger', { invitationId: 'InviteExpired0000001' }),
    );
    expect({ code: error.code, details: error.details }).toEqual({
      code: 'failed-precondition',
      details: { reason: 'invitation-expired' },
    });
    expect(channelMembers()).toEqual([UID.member]);
  });

  it.each([
    ['the consultant who sent it', 'consultant'],
    ['someone it is not addressed to', 'member'],
  ] as const)('refuses %s as permission-denied', async (_label, who) => {
    const error = await failure(
      'accept_invitation',
      requestAs(who, { invitationId: 'InvitePending0000001' }),
    );
    expect({ code: error.code, details: error.details }).toEqual({
      code: 'permission-denied',
      details: { reason: 'invitation-not-yours' },
    });
    expect(backend.store.get('invitations/InvitePending0000001')).toMatchObject({ status: 'pending' });
  });

  it('refuses the invitee while their email is not confirmed (email_verified), saying so, and changes nothing (issue #14 part 10)', async () => {
    const unconfirmed = (data: unknown) => requestAs('stranger', data, { email_verified: false });
    // Reading it too says what is left to do (confirm the address), without its contents.
    for (const name of ['get_invitation', 'accept_invitation', 'activate_invitation'] as const) {
      const error = await failure(name, unconfirmed({ invitationId: 'InvitePending0000001' }));
      expect({ code: error.code, details: error.details }).toEqual({
        code: 'permission-denied',
        details: { reason: 'email-not-verified' },
      });
    }
    expect(backend.store.get('invitations/InvitePending0000001')).toMatchObject({ status: 'pending' });
    expect(channelMembers()).toEqual([UID.member]);
    await expect(call('list_my_invitations', unconfirmed(null))).resolves.toEqual({ invitations: [] });
    // An invitation that names nobody is anyone's with the link, confirmed or not.
    await expect(
      call('accept_invitation', unconfirmed({ invitationId: 'InviteOpen0000000001' })),
    ).resolves.toMatchObject({ status: 'accepted', acceptedBy: UID.stranger });
  });

  it('creates the user document when the sign-up trigger has not written it yet', async () => {
    await call('accept_invitation', requestAs('newcomer', { invitationId: 'InviteOpen0000000001' }));
    expect(backend.store.get(`users/${UID.newcomer}`)).toMatchObject({
      email: EMAIL.newcomer,
      isOwner: false,
      credits: 0,
      passCount: 0,
      effectiveConId: UID.consultant,
    });
  });

  it('keeps the consultant a user connected to first', async () => {
    backend.store.update(`users/${UID.stranger}`, { effectiveConId: 'EarlierConsultant001' });
    await call('accept_invitation', requestAs('stranger', { invitationId: 'InvitePending0000001' }));
    expect(backend.store.get(`users/${UID.stranger}`)).toMatchObject({
      effectiveConId: 'EarlierConsultant001',
    });
  });

  it('answers not-found for an invitation that does not exist', async () => {
    const error = await failure(
      'accept_invitation',
      requestAs('stranger', { invitationId: 'NoSuchInvite00000001' }),
    );
    expect(error.code).toBe('not-found');
  });

  it('refuses a malformed id as invalid-argument', async () => {
    const error = await failure('accept_invitation', requestAs('stranger', { invitationId: '../users/x' }));
    expect(error.code).toBe('invalid-argument');
  });
});

describe('activate_invitation', () => {
  it('activates for the acceptor and grants the passes and credits it carries', async () => {
    const result = await call(
      'activate_invitation',
      requestAs('stranger', { invitationId: 'InviteAccepted000001' }),
    );
    expect(result).toMatchObject({
      invitation: { id: 'InviteAccepted000001', status: 'activated' },
      user: { uid: UID.stranger, passCount: 2, credits: 5 },
    });
    expect(backend.store.get(`users/${UID.stranger}`)).toMatchObject({ passCount: 2, credits: 5 });
    expect(backend.store.get('invitations/InviteAccepted000001')).toMatchObject({ status: 'activated' });
  });

  it('grants once: a second activation is failed-precondition invitation-used', async () => {
    const request = requestAs('stranger', { invitationId: 'InviteAccepted000001' });
    await call('activate_invitation', request);
    const error = await failure('activate_invitation', request);
    expect(error.details).toEqual({ reason: 'invitation-used' });
    expect(backend.store.get(`users/${UID.stranger}`)).toMatchObject({ passCount: 2, credits: 5 });
  });

  it('refuses an invitation nobody accepted yet', async () => {
    const error = await failure(
      'activate_invitation',
      requestAs('stranger', { invitationId: 'InvitePending0000001' }),
    );
    expect({ code: error.code, details: error.details }).toEqual({
      code: 'failed-precondition',
      details: { reason: 'invitation-not-accepted' },
    });
  });

  it('refuses an accepted invitation past its date', async () => {
    const error = await failure(
      'activate_invitation',
      requestAs('stranger', { invitationId: 'InviteAccExpired0001' }),
    );
    expect(error.details).toEqual({ reason: 'invitation-expired' });
  });

  it('refuses anyone but the acceptor as permission-denied', async () => {
    const error = await failure(
      'activate_invitation',
      requestAs('member', { invitationId: 'InviteAccepted000001' }),
    );
    expect(error.code).toBe('permission-denied');
    expect(backend.store.get(`users/${UID.member}`)).toMatchObject({ passCount: 0, credits: 0 });
  });

  it('answers not-found for an invitation that does not exist', async () => {
    const error = await failure(
      'activate_invitation',
      requestAs('stranger', { invitationId: 'NoSuchInvite00000001' }),
    );
    expect(error.code).toBe('not-found');
  });
});

describe('preview_invitation (issue #13 part 8)', () => {
  const preview = (data: unknown, who: Parameters<typeof requestAs>[0] = null) =>
    Promise.resolve(functionsTest.wrap(backend.fns.preview_invitation)(requestAs(who, data)));

  it('answers anyone, with no session, who invites to what and what it grants, and nothing else', async () => {
    await expect(preview({ invitationId: 'InvitePending0000001' })).resolves.toStrictEqual({
      id: 'InvitePending0000001',
      consultantName: 'Dana',
      channelTitle: 'Strategy Studio',
      passes: 2,
      credits: 5,
      expiresAt: NOW + 7 * 86_400_000,
      state: 'open',
      forOneEmail: true,
    });
    await expect(preview({ invitationId: 'InviteExpired0000001' }, 'member')).resolves.toMatchObject({
      state: 'expired',
    });
  });

  it.each([
    [{ invitationId: 'NoSuchInvite00000001' }, 'not-found'],
    [{ invitationId: 'short' }, 'invalid-argument'],
    [{ invitationId: 'InvitePending0000001', extra: 1 }, 'invalid-argument'],
  ])('answers %j with %s', async (data, code) => {
    await expect(preview(data)).rejects.toMatchObject({ code });
  });
});
