import {
  ADMIN_MESSAGES,
  assertAdmin,
  assertCanSetRole,
  sortAdminChannels,
  sortAdminUsers,
  withRole,
} from '@core/admin';
import { QupmError } from '@core/errors';
import type { AdminChannel, AdminUser, UserDoc } from '@core/model';

const admin = { uid: 'uidAdmin', isAdmin: true };
const consultant = { uid: 'uidDana', isAdmin: false };

function refusal(run: () => unknown): { status: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QupmError);
    const { status, message } = error as QupmError;
    return { status, message };
  }
  throw new Error('expected a refusal');
}

describe('assertAdmin (spec §6: the isAdmin claim opens the admin section)', () => {
  it('lets an admin in', () => {
    expect(() => assertAdmin(admin)).not.toThrow();
  });

  it('refuses anyone without the claim, a consultant too', () => {
    expect(refusal(() => assertAdmin(consultant))).toEqual({
      status: 'PERMISSION_DENIED',
      message: ADMIN_MESSAGES.notAdmin,
    });
  });
});

describe('assertCanSetRole', () => {
  it("lets an admin change someone else's role", () => {
    expect(() => assertCanSetRole(admin, 'uidLeo')).not.toThrow();
  });

  it('refuses an admin their own role, so nobody locks themself out by mistake', () => {
    expect(refusal(() => assertCanSetRole(admin, admin.uid))).toEqual({
      status: 'PERMISSION_DENIED',
      message: ADMIN_MESSAGES.ownRole,
    });
  });

  it('refuses a caller without the claim as not an admin, whoever the target', () => {
    for (const target of ['uidLeo', consultant.uid]) {
      expect(refusal(() => assertCanSetRole(consultant, target)).message).toBe(ADMIN_MESSAGES.notAdmin);
    }
  });
});

describe('withRole', () => {
  const leo: UserDoc = {
    uid: 'uidLeo',
    email: 'leo@example.com',
    isOwner: false,
    nickname: 'Leo',
    notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
    credits: 4,
    passCount: 1,
    effectiveConId: 'uidDana',
  };
  const joined = [
    { ownerId: 'uidSam', joinedAt: 200 },
    { ownerId: 'uidDana', joinedAt: 100 },
  ];

  it('makes a consultant their own effective consultant', () => {
    expect(withRole(leo, true, joined)).toMatchObject({ isOwner: true, effectiveConId: 'uidLeo' });
  });

  it('gives someone unmade the consultant of the channel they joined first', () => {
    const made = withRole(leo, true, joined);
    expect(withRole(made, false, joined)).toMatchObject({ isOwner: false, effectiveConId: 'uidDana' });
  });

  it('gives no effective consultant to someone unmade who only joined their own channels', () => {
    expect(
      withRole({ ...leo, isOwner: true }, false, [{ ownerId: 'uidLeo', joinedAt: 1 }]).effectiveConId,
    ).toBe('');
  });

  it('changes nothing else of the user, and leaves the document it was given as it was', () => {
    const before = structuredClone(leo);
    const made = withRole(leo, true, joined);
    expect({ ...made, isOwner: leo.isOwner, effectiveConId: leo.effectiveConId }).toEqual(leo);
    expect(leo).toEqual(before);
  });
});

describe('sortAdminUsers: oldest account first, then uid', () => {
  const user = (uid: string, createdAt: number): AdminUser => ({
    uid,
    email: `${uid}@example.com`,
    name: uid,
    isOwner: false,
    isAdmin: false,
    createdAt,
  });

  it('puts older accounts first', () => {
    expect(sortAdminUsers([user('c', 30), user('a', 10), user('b', 20)]).map((u) => u.uid)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('orders accounts of the same millisecond by uid, by code unit (upper case before lower case)', () => {
    const tied = [user('b', 5), user('B', 5), user('a', 5), user('A', 5), user('z', 1)];
    expect(sortAdminUsers(tied).map((u) => u.uid)).toEqual(['z', 'A', 'B', 'a', 'b']);
  });

  it('gives the same order whatever order the backend read them in', () => {
    const users = [user('u3', 2), user('u1', 2), user('u2', 1), user('u0', 3)];
    const expected = ['u2', 'u1', 'u3', 'u0'];
    expect(sortAdminUsers(users).map((u) => u.uid)).toEqual(expected);
    expect(sortAdminUsers([...users].reverse()).map((u) => u.uid)).toEqual(expected);
  });

  it('leaves the list it was given as it was', () => {
    const users = [user('b', 2), user('a', 1)];
    sortAdminUsers(users);
    expect(users.map((u) => u.uid)).toEqual(['b', 'a']);
  });
});

describe('sortAdminChannels: oldest channel first, then id', () => {
  const channel = (id: string, createdAt: number): AdminChannel => ({
    channel: {
      id,
      channelId: `handle-${id}`,
      ownerId: 'uidDana',
      title: id,
      description: '',
      members: [],
      createdAt,
    },
    ownerName: 'Dana',
    messageCount: 0,
  });
  const ids = (channels: AdminChannel[]) => channels.map((c) => c.channel.id);

  it('puts older channels first, and channels of the same millisecond in id order', () => {
    const channels = [channel('c', 9), channel('b', 5), channel('Z', 5), channel('a', 1)];
    expect(ids(sortAdminChannels(channels))).toEqual(['a', 'Z', 'b', 'c']);
    expect(ids(sortAdminChannels([...channels].reverse()))).toEqual(['a', 'Z', 'b', 'c']);
  });

  it('orders by the channel’s creation, not by its title or message count', () => {
    const older = { ...channel('x', 1), messageCount: 1 };
    const newer = { ...channel('a', 2), messageCount: 99 };
    expect(ids(sortAdminChannels([newer, older]))).toEqual(['x', 'a']);
  });

  it('leaves the list it was given as it was', () => {
    const channels = [channel('b', 2), channel('a', 1)];
    sortAdminChannels(channels);
    expect(ids(channels)).toEqual(['b', 'a']);
  });
});
