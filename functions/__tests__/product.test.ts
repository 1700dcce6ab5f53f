// The product's callables (channels, invitations, offers, admin), wrapped with firebase-functions-test (offline)
// over the real Firestore repository on the in-memory Admin SDK fake: every session, validation, ownership and
// existence branch, in that order, with what each leaves in Firestore.
import { HttpsError } from 'firebase-functions/v2/https';
import { READ_MARK_MESSAGES } from '../../core/channels';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { MemTimestamp } from './support/memoryFirestore';
import { putChannel, putMessage, putReadMarker, putService } from './support/seed';
import { CHANNEL, EMAIL, NOW, UID, requestAs, seededBackend } from './support/world';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The consultant's service an offer is for (the issue_offer tests put it). */
const SERVICE = 'ServiceStrategy00001';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
  // Three messages in the world's channel: Dana, Morgan, Dana.
  putMessage(backend.store, {
    id: 'MessageOne0000000001',
    channelId: CHANNEL,
    senderId: UID.consultant,
    senderName: 'Dana',
    text: 'Welcome',
    createdAt: NOW - 3 * HOUR,
  });
  putMessage(backend.store, {
    id: 'MessageTwo0000000001',
    channelId: CHANNEL,
    senderId: UID.member,
    senderName: 'Morgan Reyes',
    text: 'Thanks',
    createdAt: NOW - 2 * HOUR,
  });
  putMessage(backend.store, {
    id: 'MessageThree00000001',
    channelId: CHANNEL,
    senderId: UID.consultant,
    senderName: 'Dana',
    text: 'Post your question',
    createdAt: NOW - HOUR,
  });
  for (const [who, uid] of Object.entries(UID)) {
    backend.accounts.set(uid, {
      email: EMAIL[who as keyof typeof EMAIL],
      displayName: null,
      isAdmin: who === 'admin',
    });
  }
});
afterAll(() => functionsTest.cleanup());

type ProductName = keyof TestBackend['fns'] &
  (
    | 'get_channel_overview'
    | 'create_channel'
    | 'update_channel'
    | 'list_channel_members'
    | 'mark_channel_read'
    | 'create_invitation'
    | 'list_channel_invitations'
    | 'issue_offer'
    | 'list_issued_offers'
    | 'admin_list_users'
    | 'admin_set_consultant'
    | 'admin_list_channels'
  );
/** #6's callables, and two of #7's that show their effect. */
type Name = ProductName | 'accept_invitation' | 'get_user_active_offers';

function call(name: Name, request: ReturnType<typeof requestAs>): Promise<unknown> {
  const fn = backend.fns[name] as (typeof backend.fns)['get_channel_overview'];
  return Promise.resolve(functionsTest.wrap(fn)(request));
}

async function failure(name: Name, request: ReturnType<typeof requestAs>): Promise<HttpsError> {
  const error = await call(name, request).then(
    (result) => {
      throw new Error(`expected ${name} to fail, it answered ${JSON.stringify(result)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpsError);
  const httpsError = error as HttpsError;
  expect(httpsError.message.length).toBeGreaterThan(0);
  expect(httpsError.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  return httpsError;
}
const codeOf = async (name: Name, request: ReturnType<typeof requestAs>) =>
  (await failure(name, request)).code;

const VALID: Record<ProductName, unknown> = {
  get_channel_overview: null,
  create_channel: { channelId: 'pricing-lab', title: 'Pricing Lab' },
  update_channel: { id: CHANNEL, title: 'Renamed' },
  list_channel_members: { channelId: CHANNEL },
  mark_channel_read: { channelId: CHANNEL, messageId: 'MessageThree00000001' },
  create_invitation: { channelId: CHANNEL, passes: 1, credits: 1, expiresAt: NOW + DAY },
  list_channel_invitations: { channelId: CHANNEL },
  issue_offer: {
    channelId: CHANNEL,
    userId: UID.member,
    serviceId: SERVICE,
    discountPercent: 10,
    expiresAt: NOW + DAY,
  },
  list_issued_offers: null,
  admin_list_users: null,
  admin_set_consultant: { uid: UID.member, isOwner: true },
  admin_list_channels: null,
};
const NAMES = Object.keys(VALID) as ProductName[];

describe("every one of #6's callables", () => {
  it.each(NAMES)('%s refuses a caller without a session before reading anything', async (name) => {
    const reads = jest.spyOn(backend.deps.repo, 'getChannel');
    expect(await codeOf(name, requestAs(null, VALID[name]))).toBe('unauthenticated');
    expect(reads).not.toHaveBeenCalled();
  });

  it.each(NAMES)('%s answers an unknown key as invalid-argument', async (name) => {
    expect(await codeOf(name, requestAs('admin', { sneaky: true }))).toBe('invalid-argument');
  });
});

describe('get_channel_overview', () => {
  const overview = async (who: Parameters<typeof requestAs>[0]) =>
    (
      (await call('get_channel_overview', requestAs(who, null))) as {
        channels: Array<Record<string, unknown>>;
      }
    ).channels;

  it('answers the channels one owns or joined with the last message and what others wrote since the read marker', async () => {
    putReadMarker(backend.store, UID.member, CHANNEL, NOW - 2 * HOUR - 1);
    expect(await overview('member')).toEqual([
      {
        channel: expect.objectContaining({ id: CHANNEL, members: [UID.member] }),
        lastMessage: {
          id: 'MessageThree00000001',
          channelId: CHANNEL,
          senderId: UID.consultant,
          senderName: 'Dana',
          text: 'Post your question',
          createdAt: NOW - HOUR,
        },
        // After the marker: Morgan's own message (not counted) and Dana's last one.
        unread: 1,
      },
    ]);
    // No marker: every message by others.
    expect((await overview('consultant')).map((o) => o.unread)).toEqual([1]);
    expect(await overview('stranger')).toEqual([]);
  });

  it('orders by newest activity: a channel without messages by its creation', async () => {
    putChannel(backend.store, {
      id: 'ChannelNewer00000001',
      channelId: 'newer',
      ownerId: UID.consultant,
      title: 'Newer',
      createdAt: NOW - 10 * 60_000,
    });
    putChannel(backend.store, {
      id: 'ChannelOlder00000001',
      channelId: 'older',
      ownerId: UID.consultant,
      title: 'Older',
      createdAt: NOW - 5 * DAY,
    });
    expect((await overview('consultant')).map((o) => (o.channel as { id: string }).id)).toEqual([
      'ChannelNewer00000001',
      CHANNEL,
      'ChannelOlder00000001',
    ]);
  });

  it('counts nothing unread after mark_channel_read, until someone else writes', async () => {
    await expect(
      call(
        'mark_channel_read',
        requestAs('member', { channelId: CHANNEL, messageId: 'MessageThree00000001' }),
      ),
    ).resolves.toEqual({ success: true });
    expect((await overview('member'))[0]?.unread).toBe(0);
    backend.clock.now += 1000;
    putMessage(backend.store, {
      id: 'MessageFour000000001',
      channelId: CHANNEL,
      senderId: UID.consultant,
      senderName: 'Dana',
      text: 'One more',
      createdAt: backend.clock.now,
    });
    expect((await overview('member'))[0]?.unread).toBe(1);
  });

  describe('within the marked millisecond', () => {
    // Three more by Dana in one millisecond (ids in code-unit order: a < b < c), beside Morgan's own.
    const AT = NOW - 30 * 60_000;
    beforeEach(() => {
      for (const id of ['SameMsA0000000000001', 'SameMsB0000000000001', 'SameMsC0000000000001']) {
        putMessage(backend.store, {
          id,
          channelId: CHANNEL,
          senderId: UID.consultant,
          senderName: 'Dana',
          text: id,
          createdAt: AT,
        });
      }
      putMessage(backend.store, {
        id: 'SameMsD0000000000001',
        channelId: CHANNEL,
        senderId: UID.member,
        senderName: 'Morgan',
        text: 'mine',
        createdAt: AT,
      });
    });

    it('counts what others wrote after the marked message, by id, as unread', async () => {
      putReadMarker(backend.store, UID.member, CHANNEL, AT, 'SameMsA0000000000001');
      expect((await overview('member'))[0]?.unread).toBe(2);
      putReadMarker(backend.store, UID.member, CHANNEL, AT, 'SameMsC0000000000001');
      expect((await overview('member'))[0]?.unread).toBe(0);
    });

    it('reads a marker from before read marks named a message (no lastReadId) as the whole millisecond read', async () => {
      putReadMarker(backend.store, UID.member, CHANNEL, AT);
      expect((await overview('member'))[0]?.unread).toBe(0);
      putReadMarker(backend.store, UID.member, CHANNEL, AT - 1);
      expect((await overview('member'))[0]?.unread).toBe(3);
    });

    it('answers the last message of the newest millisecond by id, whatever order they were stored in', async () => {
      backend.clock.now = AT + HOUR;
      for (const id of ['LateZ000000000000001', 'LateA000000000000001', 'LateM000000000000001']) {
        backend.store.set(`channels/${CHANNEL}/messages/${id}`, {
          senderId: UID.consultant,
          senderName: 'Dana',
          text: id,
          createdAt: { __sentinel: 'serverTimestamp' },
        });
      }
      expect((await overview('member'))[0]?.lastMessage).toMatchObject({
        id: 'LateZ000000000000001',
        createdAt: AT + HOUR,
      });
    });
  });
});

describe('mark_channel_read', () => {
  const marker = () => backend.store.get(`users/${UID.member}/channelReads/${CHANNEL}`);
  const mark = (messageId: string, who: Parameters<typeof requestAs>[0] = 'member') =>
    call('mark_channel_read', requestAs(who, { channelId: CHANNEL, messageId }));

  it('stores the mark at the message: its time and its id', async () => {
    await expect(mark('MessageTwo0000000001')).resolves.toEqual({ success: true });
    expect(marker()).toEqual({
      lastReadAt: MemTimestamp.fromMillis(NOW - 2 * HOUR),
      lastReadId: 'MessageTwo0000000001',
    });
  });

  it('never moves the mark back: an older message after a newer one changes nothing', async () => {
    await mark('MessageThree00000001');
    await mark('MessageOne0000000001');
    await mark('MessageThree00000001');
    expect(marker()).toEqual({
      lastReadAt: MemTimestamp.fromMillis(NOW - HOUR),
      lastReadId: 'MessageThree00000001',
    });
  });

  it('moves a marker from before read marks named a message only past its millisecond', async () => {
    putReadMarker(backend.store, UID.member, CHANNEL, NOW - HOUR);
    await mark('MessageThree00000001');
    expect(marker()).toEqual({ lastReadAt: MemTimestamp.fromMillis(NOW - HOUR) });
    await mark('MessageTwo0000000001');
    expect(marker()).toEqual({ lastReadAt: MemTimestamp.fromMillis(NOW - HOUR) });
  });

  it('answers not-found for a message the channel does not have, and stores nothing', async () => {
    const error = await failure(
      'mark_channel_read',
      requestAs('member', { channelId: CHANNEL, messageId: 'NoSuchMessage0000001' }),
    );
    expect(error.code).toBe('not-found');
    expect(error.message).toBe(READ_MARK_MESSAGES.noSuchMessage);
    // A message of another channel is not one of this channel's.
    putChannel(backend.store, {
      id: 'ChannelOther00000001',
      channelId: 'other',
      ownerId: UID.consultant,
      title: 'Other',
      members: [UID.member],
      createdAt: NOW - DAY,
    });
    putMessage(backend.store, {
      id: 'MessageElsewhere0001',
      channelId: 'ChannelOther00000001',
      senderId: UID.consultant,
      senderName: 'Dana',
      text: 'elsewhere',
      createdAt: NOW - HOUR,
    });
    expect(
      await codeOf(
        'mark_channel_read',
        requestAs('member', { channelId: CHANNEL, messageId: 'MessageElsewhere0001' }),
      ),
    ).toBe('not-found');
    expect(marker()).toBeUndefined();
  });

  it('refuses those who take no part (an admin too) before looking for the message', async () => {
    expect(
      await codeOf(
        'mark_channel_read',
        requestAs('stranger', { channelId: CHANNEL, messageId: 'MessageThree00000001' }),
      ),
    ).toBe('permission-denied');
    expect(
      await codeOf(
        'mark_channel_read',
        requestAs('admin', { channelId: CHANNEL, messageId: 'MessageThree00000001' }),
      ),
    ).toBe('permission-denied');
    expect(
      await codeOf(
        'mark_channel_read',
        requestAs('stranger', { channelId: CHANNEL, messageId: 'NoSuchMessage0000001' }),
      ),
    ).toBe('permission-denied');
  });

  it('answers not-found for no channel, and invalid-argument for a handle or a missing message id', async () => {
    expect(
      await codeOf(
        'mark_channel_read',
        requestAs('member', { channelId: 'NoSuchChannel0000001', messageId: 'MessageThree00000001' }),
      ),
    ).toBe('not-found');
    expect(
      await codeOf(
        'mark_channel_read',
        requestAs('member', { channelId: 'strategy-studio', messageId: 'MessageThree00000001' }),
      ),
    ).toBe('invalid-argument');
    expect(await codeOf('mark_channel_read', requestAs('member', { channelId: CHANNEL }))).toBe(
      'invalid-argument',
    );
    expect(
      await codeOf('mark_channel_read', requestAs('member', { channelId: CHANNEL, messageId: 'short' })),
    ).toBe('invalid-argument');
  });
});

describe('create_channel', () => {
  it("creates the consultant's channel with its handle reserved", async () => {
    const channel = (await call(
      'create_channel',
      requestAs('consultant', { channelId: 'pricing-lab', title: ' Pricing Lab ' }),
    )) as { id: string };
    expect(channel).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      channelId: 'pricing-lab',
      ownerId: UID.consultant,
      title: 'Pricing Lab',
      description: '',
      members: [],
      createdAt: NOW,
    });
    expect(backend.store.get(`channels/${channel.id}`)).toEqual({
      channelId: 'pricing-lab',
      ownerId: UID.consultant,
      title: 'Pricing Lab',
      description: '',
      members: [],
      createdAt: MemTimestamp.fromMillis(NOW),
    });
    expect(backend.store.get('channelHandles/pricing-lab')).toEqual({ id: channel.id });
  });

  it('refuses a taken handle as already-exists: one held by an older channel, and one just reserved', async () => {
    expect(
      await codeOf(
        'create_channel',
        requestAs('consultant', { channelId: 'strategy-studio', title: 'Again' }),
      ),
    ).toBe('already-exists');
    await call('create_channel', requestAs('consultant', { channelId: 'pricing-lab', title: 'One' }));
    expect(
      await codeOf('create_channel', requestAs('consultant', { channelId: 'pricing-lab', title: 'Two' })),
    ).toBe('already-exists');
    expect(backend.store.paths().filter((p) => /^channels\/[^/]+$/.test(p))).toHaveLength(2);
  });

  it.each(['member', 'stranger', 'admin'] as const)('refuses the %s, who is no consultant', async (who) => {
    expect(await codeOf('create_channel', requestAs(who, VALID.create_channel))).toBe('permission-denied');
    expect(backend.store.paths()).not.toContain('channelHandles/pricing-lab');
  });

  it.each([
    ['a handle with capitals', { channelId: 'Pricing', title: 'x' }],
    ['a whitespace-only title', { channelId: 'pricing-lab', title: '  ' }],
    ['an owner of its own choosing', { channelId: 'pricing-lab', title: 'x', ownerId: UID.member }],
  ])('refuses %s as invalid-argument', async (_label, data) => {
    expect(await codeOf('create_channel', requestAs('consultant', data))).toBe('invalid-argument');
  });
});

describe('update_channel', () => {
  it('lets the owner change the title, keeping the rest', async () => {
    const updated = await call(
      'update_channel',
      requestAs('consultant', { id: CHANNEL, title: ' Renamed ' }),
    );
    expect(updated).toEqual({
      id: CHANNEL,
      channelId: 'strategy-studio',
      ownerId: UID.consultant,
      title: 'Renamed',
      description: '',
      members: [UID.member],
      createdAt: NOW - 30 * DAY,
    });
    expect(backend.store.get(`channels/${CHANNEL}`)).toMatchObject({ title: 'Renamed', description: '' });
  });

  it.each(['member', 'stranger', 'admin'] as const)('refuses the %s, who does not own it', async (who) => {
    expect(await codeOf('update_channel', requestAs(who, { id: CHANNEL, title: 'Mine' }))).toBe(
      'permission-denied',
    );
    expect(backend.store.get(`channels/${CHANNEL}`)).toMatchObject({ title: 'Strategy Studio' });
  });

  it('answers not-found for no channel, and invalid-argument for nothing to change', async () => {
    expect(
      await codeOf('update_channel', requestAs('member', { id: 'NoSuchChannel0000001', title: 'x' })),
    ).toBe('not-found');
    expect(await codeOf('update_channel', requestAs('consultant', { id: CHANNEL }))).toBe('invalid-argument');
  });
});

describe('list_channel_members', () => {
  it('answers the owner first, then members by when they joined (the channel’s creation without a record)', async () => {
    putChannel(backend.store, {
      id: CHANNEL,
      channelId: 'strategy-studio',
      ownerId: UID.consultant,
      title: 'Strategy Studio',
      members: [UID.member, UID.stranger],
      createdAt: NOW - 30 * DAY,
      joinedAt: { [UID.stranger]: NOW - 40 * DAY + 1 },
    });
    const result = await call('list_channel_members', requestAs('member', { channelId: CHANNEL }));
    expect(result).toEqual({
      members: [
        { uid: UID.consultant, name: 'Dana', role: 'owner', joinedAt: NOW - 30 * DAY },
        { uid: UID.stranger, name: 'Sam Patel', role: 'member', joinedAt: NOW - 40 * DAY + 1 },
        { uid: UID.member, name: 'Morgan Reyes', role: 'member', joinedAt: NOW - 30 * DAY },
      ],
    });
  });

  it('records when someone joins through an invitation', async () => {
    await call('accept_invitation', requestAs('stranger', { invitationId: 'InvitePending0000001' }));
    const { members } = (await call(
      'list_channel_members',
      requestAs('stranger', { channelId: CHANNEL }),
    )) as {
      members: Array<{ uid: string; joinedAt: number }>;
    };
    expect(members.at(-1)).toEqual({ uid: UID.stranger, name: 'Sam Patel', role: 'member', joinedAt: NOW });
  });

  it('lets an admin read them, and refuses anyone outside the channel', async () => {
    await expect(
      call('list_channel_members', requestAs('admin', { channelId: CHANNEL })),
    ).resolves.toBeDefined();
    expect(await codeOf('list_channel_members', requestAs('stranger', { channelId: CHANNEL }))).toBe(
      'permission-denied',
    );
    expect(
      await codeOf('list_channel_members', requestAs('member', { channelId: 'NoSuchChannel0000001' })),
    ).toBe('not-found');
  });
});

describe('create_invitation and list_channel_invitations', () => {
  it('lets the owner invite someone, stored for functions only to change, and lists it first', async () => {
    const invitation = (await call(
      'create_invitation',
      requestAs('consultant', {
        channelId: CHANNEL,
        inviteeEmail: 'Nia@Example.com',
        passes: 2,
        credits: 3,
        expiresAt: NOW + 7 * DAY,
      }),
    )) as { id: string };
    expect(invitation).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      channelId: CHANNEL,
      channelTitle: 'Strategy Studio',
      consultantId: UID.consultant,
      consultantName: 'Dana',
      inviteeEmail: 'nia@example.com',
      status: 'pending',
      passes: 2,
      credits: 3,
      expiresAt: NOW + 7 * DAY,
    });
    expect(backend.store.get(`invitations/${invitation.id}`)).toEqual({
      channelId: CHANNEL,
      consultantId: UID.consultant,
      inviteeEmail: 'nia@example.com',
      status: 'pending',
      passes: 2,
      credits: 3,
      expiresAt: MemTimestamp.fromMillis(NOW + 7 * DAY),
      createdAt: MemTimestamp.fromMillis(NOW),
    });
    const { invitations } = (await call(
      'list_channel_invitations',
      requestAs('consultant', { channelId: CHANNEL }),
    )) as { invitations: Array<{ id: string; status: string }> };
    expect(invitations[0]).toEqual(invitation);
    // The world's invitations were all created a day ago; a pending one past its date reads as expired.
    expect(invitations.find((i) => i.id === 'InviteExpired0000001')?.status).toBe('expired');
  });

  it.each<[string, Record<string, unknown>]>([
    ['an expiry in the past', { expiresAt: NOW - 1 }],
    ['an expiry over a year ahead', { expiresAt: NOW + 367 * DAY }],
    ["the consultant's own email", { inviteeEmail: EMAIL.consultant }],
    ['more than 1000 credits', { credits: 1001 }],
  ])('refuses %s as invalid-argument, writing nothing', async (_label, change) => {
    const before = backend.store.paths().length;
    expect(
      await codeOf(
        'create_invitation',
        requestAs('consultant', { ...(VALID.create_invitation as object), ...change }),
      ),
    ).toBe('invalid-argument');
    expect(backend.store.paths()).toHaveLength(before);
  });

  it('refuses anyone but the owner, and answers not-found for no channel', async () => {
    for (const who of ['member', 'stranger', 'admin'] as const) {
      expect(await codeOf('create_invitation', requestAs(who, VALID.create_invitation))).toBe(
        'permission-denied',
      );
    }
    expect(
      await codeOf(
        'create_invitation',
        requestAs('consultant', {
          ...(VALID.create_invitation as object),
          channelId: 'NoSuchChannel0000001',
        }),
      ),
    ).toBe('not-found');
  });

  it("lets an admin list a channel's invitations, and refuses its members", async () => {
    await expect(
      call('list_channel_invitations', requestAs('admin', { channelId: CHANNEL })),
    ).resolves.toBeDefined();
    expect(await codeOf('list_channel_invitations', requestAs('member', { channelId: CHANNEL }))).toBe(
      'permission-denied',
    );
  });
});

describe('issue_offer and list_issued_offers', () => {
  beforeEach(() => {
    putService(backend.store, {
      id: SERVICE,
      consultantId: UID.consultant,
      title: 'Strategy session',
      durationMinutes: 60,
      priceCredits: 2,
      createdAt: NOW - DAY,
    });
  });

  it('issues a discount to a member, who then has it among their active offers; the consultant lists it first', async () => {
    const offer = (await call(
      'issue_offer',
      requestAs('consultant', {
        channelId: CHANNEL,
        userId: UID.member,
        serviceId: SERVICE,
        discountPercent: 100,
        expiresAt: NOW + DAY,
      }),
    )) as { offeringId: string };
    expect(offer).toEqual({
      offeringId: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      userId: UID.member,
      userName: 'Morgan Reyes',
      channelId: CHANNEL,
      serviceId: SERVICE,
      discountPercent: 100,
      source: 'Consultant offer',
      status: 'active',
      expiresAt: NOW + DAY,
      createdAt: NOW,
    });
    const active = (await call('get_user_active_offers', requestAs('member', null))) as {
      offers: Array<{ offeringId: string }>;
    };
    expect(active.offers.map((o) => o.offeringId)).toContain(offer.offeringId);
    const { offers } = (await call('list_issued_offers', requestAs('consultant', null))) as {
      offers: Array<{ offeringId: string; userName: string }>;
    };
    expect(offers[0]).toEqual(offer);
    // Every offer of the consultant's channel, whatever its status, with whom it went to.
    expect(offers).toHaveLength(6);
    expect(await call('list_issued_offers', requestAs('member', null))).toEqual({ offers: [] });
  });

  it.each<[string, Record<string, unknown>]>([
    ['0 %', { discountPercent: 0 }],
    ['over 100 %', { discountPercent: 101 }],
    ['a fraction of a percent', { discountPercent: 2.5 }],
    ['an expiry in the past', { expiresAt: NOW }],
  ])('refuses a discount of %s as invalid-argument', async (_label, change) => {
    expect(
      await codeOf('issue_offer', requestAs('consultant', { ...(VALID.issue_offer as object), ...change })),
    ).toBe('invalid-argument');
  });

  it('refuses an offer naming no service as invalid-argument, and a service not theirs as failed-precondition', async () => {
    const { serviceId: _serviceId, ...withoutService } = VALID.issue_offer as Record<string, unknown>;
    const none = await failure('issue_offer', requestAs('consultant', withoutService));
    expect([none.code, none.message]).toEqual([
      'invalid-argument',
      'serviceId: choose the service this offer is for',
    ]);
    expect(
      await codeOf(
        'issue_offer',
        requestAs('consultant', { ...withoutService, serviceId: 'NoSuchService0000001' }),
      ),
    ).toBe('failed-precondition');
  });

  it('refuses an offer to someone outside the channel or to the owner as failed-precondition', async () => {
    for (const userId of [UID.stranger, UID.consultant, 'NoSuchUser0000000001']) {
      expect(
        await codeOf('issue_offer', requestAs('consultant', { ...(VALID.issue_offer as object), userId })),
      ).toBe('failed-precondition');
    }
  });

  it('refuses anyone but the owner, and answers not-found for no channel', async () => {
    expect(await codeOf('issue_offer', requestAs('member', VALID.issue_offer))).toBe('permission-denied');
    expect(await codeOf('issue_offer', requestAs('admin', VALID.issue_offer))).toBe('permission-denied');
    expect(
      await codeOf(
        'issue_offer',
        requestAs('consultant', { ...(VALID.issue_offer as object), channelId: 'NoSuchChannel0000001' }),
      ),
    ).toBe('not-found');
  });
});

describe('the admin callables', () => {
  it('list every user with roles, the admin one from the custom claim', async () => {
    const { users } = (await call('admin_list_users', requestAs('admin', null))) as {
      users: Array<{ uid: string; isOwner: boolean; isAdmin: boolean; name: string }>;
    };
    expect(users.map((u) => [u.uid, u.name, u.isOwner, u.isAdmin])).toEqual([
      [UID.admin, 'Admin', false, true],
      [UID.consultant, 'Dana', true, false],
      [UID.member, 'Morgan Reyes', false, false],
      [UID.stranger, 'Sam Patel', false, false],
    ]);
  });

  it('list every channel with its owner and message count', async () => {
    expect(await call('admin_list_channels', requestAs('admin', null))).toEqual({
      channels: [{ channel: expect.objectContaining({ id: CHANNEL }), ownerName: 'Dana', messageCount: 3 }],
    });
  });

  it('make and unmake a consultant, with the effectiveConId each implies', async () => {
    await expect(
      call('admin_set_consultant', requestAs('admin', { uid: UID.member, isOwner: true })),
    ).resolves.toEqual({
      uid: UID.member,
      email: EMAIL.member,
      name: 'Morgan Reyes',
      isOwner: true,
      isAdmin: false,
      createdAt: 0,
    });
    expect(backend.store.get(`users/${UID.member}`)).toMatchObject({
      isOwner: true,
      effectiveConId: UID.member,
    });
    await call('admin_set_consultant', requestAs('admin', { uid: UID.member, isOwner: false }));
    expect(backend.store.get(`users/${UID.member}`)).toMatchObject({
      isOwner: false,
      effectiveConId: UID.consultant,
    });
  });

  it("refuse an admin's own role, anyone without the claim, and answer not-found for nobody", async () => {
    expect(await codeOf('admin_set_consultant', requestAs('admin', { uid: UID.admin, isOwner: true }))).toBe(
      'permission-denied',
    );
    for (const name of ['admin_list_users', 'admin_list_channels', 'admin_set_consultant'] as const) {
      expect(await codeOf(name, requestAs('consultant', VALID[name]))).toBe('permission-denied');
    }
    expect(
      await codeOf(
        'admin_set_consultant',
        requestAs('admin', { uid: 'NoSuchUser0000000001', isOwner: true }),
      ),
    ).toBe('not-found');
    expect(backend.store.get(`users/${UID.member}`)).toMatchObject({ isOwner: false });
  });
});
