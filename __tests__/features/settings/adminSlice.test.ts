import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { AdminChannel, AdminUser } from '@core/model';
import reducer, {
  adminChannelsFailed,
  adminChannelsLoaded,
  adminChannelsRequested,
  adminUsersFailed,
  adminUsersLoaded,
  adminUsersRequested,
  initialState,
  roleChangeFailed,
  roleChangeRequested,
  roleChanged,
  selectAdmin,
} from '@/features/settings/adminSlice';
import type { AdminState } from '@/features/settings/adminSlice';
import { signedOut } from '@/store/userSlice';

const T0 = 1_700_000_000_000;
const user = (uid: string, isOwner = false): AdminUser => ({
  uid,
  email: `${uid}@example.com`,
  name: uid,
  isOwner,
  isAdmin: false,
  createdAt: T0,
});
const channel = (id: string): AdminChannel => ({
  channel: {
    id,
    channelId: `handle-${id}`,
    ownerId: 'dana',
    title: id,
    description: '',
    members: [],
    createdAt: T0,
  },
  ownerName: 'Dana',
  messageCount: 3,
});

const admin = (state: AdminState) => selectAdmin({ admin: state });
const listed = (state: AdminState) => reducer(state, adminUsersLoaded({ items: [user('ada'), user('leo')] }));

describe('admin reducer: the lists', () => {
  it('starts with nothing loaded and no role change on its way', () => {
    expect(admin(reducer(undefined, { type: '@@INIT' }))).toEqual({
      users: { status: 'idle', items: [], error: null },
      channels: { status: 'idle', items: [], error: null },
      changing: [],
      roleError: null,
    });
  });

  it('loads the users in the order the backend sorted them', () => {
    let state = reducer(initialState, adminUsersRequested());
    expect(admin(state).users.status).toBe('loading');
    state = reducer(state, adminUsersLoaded({ items: [user('leo'), user('ada')] }));
    expect(admin(state).users).toMatchObject({ status: 'loaded', error: null });
    expect(admin(state).users.items.map((u) => u.uid)).toEqual(['leo', 'ada']);
  });

  it('keeps the users it has through a reload that fails, saying why, and clears the words on the next try', () => {
    let state = reducer(listed(initialState), adminUsersRequested());
    expect(admin(state).users.items).toHaveLength(2);
    state = reducer(state, adminUsersFailed({ message: 'Only admins can do this.' }));
    expect(admin(state).users).toMatchObject({ status: 'failed', error: 'Only admins can do this.' });
    expect(admin(state).users.items.map((u) => u.uid)).toEqual(['ada', 'leo']);
    expect(admin(reducer(state, adminUsersRequested())).users.error).toBeNull();
  });

  it('loads the channels, and says why they failed, on their own', () => {
    let state = reducer(initialState, adminChannelsRequested());
    expect(admin(state).channels.status).toBe('loading');
    state = reducer(state, adminChannelsLoaded({ items: [channel('c1'), channel('c2')] }));
    expect(admin(state).channels.items.map((c) => c.channel.id)).toEqual(['c1', 'c2']);
    state = reducer(state, adminChannelsFailed({ message: 'Server busy' }));
    expect(admin(state).channels).toMatchObject({ status: 'failed', error: 'Server busy' });
    expect(admin(state).channels.items.map((c) => c.channel.id)).toEqual(['c1', 'c2']);
    expect(admin(state).users.status).toBe('idle');
    expect(admin(reducer(state, adminChannelsRequested())).channels.error).toBeNull();
  });
});

describe('admin reducer: role changes', () => {
  it('marks each user whose change is on its way, once however often it is asked', () => {
    let state = reducer(listed(initialState), roleChangeRequested({ uid: 'leo', isOwner: true }));
    state = reducer(state, roleChangeRequested({ uid: 'leo', isOwner: true }));
    state = reducer(state, roleChangeRequested({ uid: 'ada', isOwner: true }));
    expect(admin(state).changing).toEqual(['leo', 'ada']);
  });

  it('shows the user as the backend answered, in the same place, and no longer busy', () => {
    let state = reducer(listed(initialState), roleChangeRequested({ uid: 'ada', isOwner: true }));
    state = reducer(state, roleChanged({ user: user('ada', true) }));
    expect(admin(state).users.items.map((u) => [u.uid, u.isOwner])).toEqual([
      ['ada', true],
      ['leo', false],
    ]);
    expect(admin(state).changing).toEqual([]);
  });

  it('does not add a user it does not list when their change is answered', () => {
    let state = reducer(listed(initialState), roleChangeRequested({ uid: 'ghost', isOwner: true }));
    state = reducer(state, roleChanged({ user: user('ghost', true) }));
    expect(admin(state).users.items.map((u) => u.uid)).toEqual(['ada', 'leo']);
    expect(admin(state).changing).toEqual([]);
  });

  it('says why a change was refused, leaving the other changes on their way, and clears it on the next', () => {
    let state = reducer(listed(initialState), roleChangeRequested({ uid: 'ada', isOwner: true }));
    state = reducer(state, roleChangeRequested({ uid: 'leo', isOwner: true }));
    state = reducer(
      state,
      roleChangeFailed({ uid: 'ada', message: 'You cannot change your own role. Ask another admin.' }),
    );
    expect(admin(state)).toMatchObject({
      changing: ['leo'],
      roleError: 'You cannot change your own role. Ask another admin.',
    });
    expect(admin(state).users.items.find((u) => u.uid === 'ada')?.isOwner).toBe(false);
    expect(admin(reducer(state, roleChangeRequested({ uid: 'ada', isOwner: true }))).roleError).toBeNull();
  });
});

describe('admin reducer: sign-out', () => {
  it('forgets what the admin saw (the next person on this device may not be one)', () => {
    let state = listed(initialState);
    state = reducer(state, adminChannelsLoaded({ items: [channel('c1')] }));
    state = reducer(state, roleChangeRequested({ uid: 'leo', isOwner: true }));
    state = reducer(state, roleChangeFailed({ uid: 'leo', message: 'x' }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });

  it('stays serializable', () => {
    let state = listed(initialState);
    state = reducer(state, adminChannelsLoaded({ items: [channel('c1')] }));
    state = reducer(state, roleChangeRequested({ uid: 'leo', isOwner: true }));
    expect(findNonSerializableValue(state)).toBe(false);
  });
});
