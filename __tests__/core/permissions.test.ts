import {
  canClearPending,
  canMessage,
  canReadChannel,
  canReadUser,
  canWriteUser,
  channelPermissions,
} from '@core/permissions';

const channel = { ownerId: 'owner', members: ['m1', 'm2'] };

describe('channelPermissions', () => {
  it('makes the stored owner the owner, who may message', () => {
    expect(channelPermissions(channel, 'owner')).toEqual({
      permissions: { canMessage: true, isOwner: true },
    });
  });

  it('lets a member message without owning', () => {
    expect(channelPermissions(channel, 'm2')).toEqual({ permissions: { canMessage: true, isOwner: false } });
  });

  it('gives anyone else neither (the service banner case)', () => {
    expect(channelPermissions(channel, 'stranger')).toEqual({
      permissions: { canMessage: false, isOwner: false },
    });
  });

  it('never lets an empty uid match a channel with an empty owner', () => {
    expect(channelPermissions({ ownerId: '', members: [''] }, '')).toEqual({
      permissions: { canMessage: false, isOwner: false },
    });
  });
});

describe('channel access', () => {
  it('lets owner, members and admins read; only owner and members message', () => {
    expect(canReadChannel(channel, { uid: 'm1', isAdmin: false })).toBe(true);
    expect(canReadChannel(channel, { uid: 'x', isAdmin: true })).toBe(true);
    expect(canReadChannel(channel, { uid: 'x', isAdmin: false })).toBe(false);
    expect(canMessage(channel, 'owner')).toBe(true);
    expect(canMessage(channel, 'x')).toBe(false);
  });
});

describe('user documents', () => {
  it('are read by their owner or an admin, and written by their owner alone', () => {
    expect(canReadUser({ uid: 'a', isAdmin: false }, 'a')).toBe(true);
    expect(canReadUser({ uid: 'a', isAdmin: false }, 'b')).toBe(false);
    expect(canReadUser({ uid: 'a', isAdmin: true }, 'b')).toBe(true);
    expect(canWriteUser({ uid: 'a' }, 'a')).toBe(true);
    expect(canWriteUser({ uid: 'a' }, 'b')).toBe(false);
  });

  it('have their pending notifications cleared by their owner or an admin', () => {
    expect(canClearPending({ uid: 'a', isAdmin: false }, 'a')).toBe(true);
    expect(canClearPending({ uid: 'a', isAdmin: false }, 'b')).toBe(false);
    expect(canClearPending({ uid: 'a', isAdmin: true }, 'b')).toBe(true);
  });
});
