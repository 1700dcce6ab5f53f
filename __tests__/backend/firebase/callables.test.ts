import { INVITATION_CALLABLES, createFirebaseBackend } from '@/backend/firebase';
import { CONFIG, FakeFirebaseError, fakeUser, flushPromises, querySnapshot, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AppFake, AuthFake, FakeUser, FirestoreFake, FunctionsFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const app = jest.requireMock<AppFake>('firebase/app');
const fn = jest.requireMock<FunctionsFake>('firebase/functions');
const fs = jest.requireMock<FirestoreFake>('firebase/firestore');
const auth = jest.requireMock<AuthFake>('firebase/auth');

beforeEach(() => resetSdkFakes());

function answers(data: unknown): void {
  fn.callable.mockResolvedValue({ data });
}

const INVITATION = {
  id: 'inv1',
  channelId: 'ch1',
  channelTitle: 'Tax help',
  consultantId: 'c1',
  consultantName: 'Carla',
  inviteeEmail: 'ann@example.com',
  status: 'accepted',
  passes: 2,
  credits: 10,
  // How the Admin SDK serialises a Timestamp into a callable answer.
  expiresAt: { _seconds: 1_800_000_000, _nanoseconds: 0 },
  acceptedBy: 'u1',
};

describe('callables', () => {
  it('calls the functions in the configured region of the app', async () => {
    answers({ permissions: { canMessage: true, isOwner: false } });
    await createFirebaseBackend(CONFIG).callables.checkChannelPermissions({ channel_id: 'ch1' });
    expect(fn.getFunctions).toHaveBeenCalledWith(app.initializeApp.mock.results[0]?.value, 'europe-west1');
  });

  it('calls in us-central1 when no region is configured', async () => {
    answers({ permissions: { canMessage: true, isOwner: false } });
    const { functionsRegion: _region, ...config } = CONFIG;
    await createFirebaseBackend(config).callables.checkChannelPermissions({ channel_id: 'ch1' });
    expect(fn.getFunctions.mock.calls[0]?.[1]).toBe('us-central1');
  });

  it('check_channel_permissions: sends channel_id and the optional owner id, answers the permissions', async () => {
    answers({ permissions: { canMessage: true, isOwner: true } });
    const result = await createFirebaseBackend(CONFIG).callables.checkChannelPermissions({
      channel_id: 'ch1',
      channel_owner_id: 'c1',
    });
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'check_channel_permissions');
    expect(fn.callable).toHaveBeenCalledWith({ channel_id: 'ch1', channel_owner_id: 'c1' });
    expect(result).toStrictEqual({ permissions: { canMessage: true, isOwner: true } });
  });

  it('check_channel_permissions: leaves the owner id out when none is given (the schema is strict)', async () => {
    answers({ permissions: { canMessage: false, isOwner: false } });
    await createFirebaseBackend(CONFIG).callables.checkChannelPermissions({ channel_id: 'ch1' });
    // Not even as undefined: the SDK would send it as null, which the strict schema refuses.
    expect(fn.callable.mock.calls[0]?.[0]).toStrictEqual({ channel_id: 'ch1' });
  });

  it('get_user_active_offers: sends no payload and answers the offers with epoch-millisecond times', async () => {
    answers({
      offers: [
        {
          offeringId: 'o1',
          discountPercent: 20,
          source: 'consultant',
          channelId: 'ch1',
          status: 'active',
          expiresAt: { _seconds: 2_000, _nanoseconds: 500_000_000 },
          createdAt: 1_000_000,
        },
      ],
    });
    const result = await createFirebaseBackend(CONFIG).callables.getUserActiveOffers();
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'get_user_active_offers');
    expect(fn.callable).toHaveBeenCalledWith(null);
    expect(result).toStrictEqual({
      offers: [
        {
          offeringId: 'o1',
          discountPercent: 20,
          source: 'consultant',
          channelId: 'ch1',
          status: 'active',
          expiresAt: 2_000_500,
          createdAt: 1_000_000,
        },
      ],
    });
  });

  it('clear_pending_notifications: sends the userId and answers success', async () => {
    answers({ success: true });
    const result = await createFirebaseBackend(CONFIG).callables.clearPendingNotifications({ userId: 'u1' });
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'clear_pending_notifications');
    expect(fn.callable).toHaveBeenCalledWith({ userId: 'u1' });
    expect(result).toStrictEqual({ success: true });
  });

  it('answers INTERNAL for an answer it cannot read, rather than passing it on', async () => {
    answers({ offers: 'lots' });
    await expect(createFirebaseBackend(CONFIG).callables.getUserActiveOffers()).rejects.toMatchObject({
      name: 'BackendError',
      status: 'INTERNAL',
    });
  });

  it("turns a callable's HttpsError into a BackendError with its status and message", async () => {
    fn.callable.mockRejectedValue(
      new FakeFirebaseError('functions/permission-denied', 'Only your own pending notifications [403]'),
    );
    const call = createFirebaseBackend(CONFIG).callables.clearPendingNotifications({ userId: 'u2' });
    await expect(call).rejects.toMatchObject({
      name: 'BackendError',
      status: 'PERMISSION_DENIED',
      message: 'Only your own pending notifications',
    });
  });

  it('loads the functions SDK once for many calls', async () => {
    answers({ success: true });
    const backend = createFirebaseBackend(CONFIG);
    await Promise.all([
      backend.callables.clearPendingNotifications({ userId: 'u1' }),
      backend.callables.clearPendingNotifications({ userId: 'u1' }),
    ]);
    await backend.callables.clearPendingNotifications({ userId: 'u1' });
    expect(fn.getFunctions).toHaveBeenCalledTimes(1);
  });
});

describe('invitations', () => {
  it('names the callables the functions side implements', () => {
    expect(Object.values(INVITATION_CALLABLES)).toEqual([
      'get_invitation',
      'accept_invitation',
      'activate_invitation',
      'list_my_invitations',
      'preview_invitation',
    ]);
  });

  it.each(['open', 'used', 'expired', 'withdrawn'] as const)(
    'preview_invitation: a link whose invitation is %s reads as such, as on the embedded server',
    async (state) => {
      const preview = {
        id: 'inv1',
        consultantName: 'Carla',
        channelTitle: 'Tax help',
        passes: 2,
        credits: 10,
        expiresAt: 1_800_000_000_000,
        state,
        forOneEmail: false,
      };
      answers(preview);
      await expect(
        createFirebaseBackend(CONFIG).invitations.previewInvitation('inv1'),
      ).resolves.toStrictEqual(preview);
      expect(fn.callable).toHaveBeenCalledWith({ invitationId: 'inv1' });
    },
  );

  it('list_my_invitations: sends no payload and answers the invitations waiting for the person', async () => {
    answers({ invitations: [{ ...INVITATION, status: 'pending' }] });
    const mine = await createFirebaseBackend(CONFIG).invitations.listMyInvitations();
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'list_my_invitations');
    expect(fn.callable).toHaveBeenCalledWith(null);
    expect(mine).toStrictEqual([{ ...INVITATION, status: 'pending', expiresAt: 1_800_000_000_000 }]);
  });

  it('follows exactly the pending invitations naming the person’s email (the query the rules allow)', async () => {
    auth.instance.currentUser = fakeUser({ email: 'ann@example.com' });
    const stop = jest.fn();
    fs.onSnapshot.mockReturnValue(stop);
    const listener = jest.fn();
    const unsubscribe = createFirebaseBackend(CONFIG).invitations.subscribeMyInvitations(listener);
    await flushPromises();
    const [target, next] = fs.onSnapshot.mock.calls[0] ?? [];
    expect(target).toEqual({
      type: 'query',
      path: 'invitations',
      constraints: [
        { where: ['inviteeEmail', '==', 'ann@example.com'] },
        { where: ['status', '==', 'pending'] },
      ],
    });
    // Every snapshot asks for a read, the first one included.
    (next as (snapshot: unknown) => void)(querySnapshot([]));
    (next as (snapshot: unknown) => void)(querySnapshot([]));
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('follows nothing while the address is unconfirmed (the rules would refuse), and starts once the token says it is', async () => {
    const user = fakeUser({ email: 'ann@example.com', emailVerified: false });
    auth.instance.currentUser = user;
    const stop = jest.fn();
    fs.onSnapshot.mockReturnValue(stop);
    const listener = jest.fn();
    const unsubscribe = createFirebaseBackend(CONFIG).invitations.subscribeMyInvitations(listener);
    await flushPromises();
    expect(fs.onSnapshot).not.toHaveBeenCalled();

    // The address is confirmed and the ID token refreshed (verifyEmail, getEmailVerification).
    const tokenChanged = auth.onIdTokenChanged.mock.calls[0]?.[1] as (user: FakeUser | null) => void;
    user.emailVerified = true;
    tokenChanged(user);
    await flushPromises();
    expect(fs.onSnapshot).toHaveBeenCalledTimes(1);
    // An hourly refresh of the same confirmed token leaves the query as it is.
    tokenChanged(user);
    await flushPromises();
    expect(fs.onSnapshot).toHaveBeenCalledTimes(1);
    // Signed out: the query stops.
    tokenChanged(null);
    expect(stop).toHaveBeenCalledTimes(1);
    unsubscribe();
    expect(auth.onIdTokenChanged.mock.results[0]?.value).toHaveBeenCalledTimes(1);
  });

  it('follows nothing for an account without an email', async () => {
    auth.instance.currentUser = fakeUser({ email: null });
    createFirebaseBackend(CONFIG).invitations.subscribeMyInvitations(jest.fn());
    await flushPromises();
    expect(fs.onSnapshot).not.toHaveBeenCalled();
  });

  it('get_invitation: sends the invitation id and answers the invitation with epoch-millisecond times', async () => {
    answers(INVITATION);
    const invitation = await createFirebaseBackend(CONFIG).invitations.getInvitation('inv1');
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'get_invitation');
    expect(fn.callable).toHaveBeenCalledWith({ invitationId: 'inv1' });
    expect(invitation).toStrictEqual({ ...INVITATION, expiresAt: 1_800_000_000_000 });
  });

  it('accept_invitation: sends the invitation id and answers the accepted invitation', async () => {
    answers(INVITATION);
    const invitation = await createFirebaseBackend(CONFIG).invitations.acceptInvitation('inv1');
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'accept_invitation');
    expect(fn.callable).toHaveBeenCalledWith({ invitationId: 'inv1' });
    expect(invitation.status).toBe('accepted');
  });

  it('activate_invitation: answers the invitation and the user document with its new balances', async () => {
    answers({
      invitation: { ...INVITATION, status: 'activated' },
      user: {
        uid: 'u1',
        email: 'ann@example.com',
        credits: 10,
        passCount: 2,
        notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app'] } },
      },
    });
    const result = await createFirebaseBackend(CONFIG).invitations.activateInvitation('inv1');
    expect(fn.httpsCallable).toHaveBeenCalledWith(fn.functions, 'activate_invitation');
    expect(fn.callable).toHaveBeenCalledWith({ invitationId: 'inv1' });
    expect(result.invitation.status).toBe('activated');
    expect(result.user).toStrictEqual({
      uid: 'u1',
      email: 'ann@example.com',
      isOwner: false,
      notificationSettings: { enabled: true, delivery: { channels: ['push', 'in_app'] } },
      credits: 10,
      passCount: 2,
      effectiveConId: '',
    });
  });

  it('passes on why an invitation is refused (expired) as the reason', async () => {
    fn.callable.mockRejectedValue(
      new FakeFirebaseError('functions/failed-precondition', 'This invitation has expired. [400]', {
        reason: 'invitation-expired',
      }),
    );
    await expect(createFirebaseBackend(CONFIG).invitations.acceptInvitation('inv1')).rejects.toMatchObject({
      status: 'FAILED_PRECONDITION',
      reason: 'invitation-expired',
      message: 'This invitation has expired.',
    });
  });

  it('answers NOT_FOUND for an unknown invitation', async () => {
    fn.callable.mockRejectedValue(new FakeFirebaseError('functions/not-found', 'No such invitation. [404]'));
    await expect(createFirebaseBackend(CONFIG).invitations.getInvitation('nope')).rejects.toMatchObject({
      status: 'NOT_FOUND',
    });
  });
});
