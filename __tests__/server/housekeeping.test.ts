// A consultant's housekeeping on the real server (server/services/housekeeping.ts) with the demo world: what
// archiving and deleting say first, archive and reopen, delete, remove a member, revoke an invitation, withdraw an
// offer, hand a channel over (its owner or an admin), and then leave QuPM.
import type { Caller } from '../../core/permissions';
import {
  archiveChannel,
  deleteChannel,
  describeChannelRemoval,
  handOverChannel,
  removeMember,
  revokeInvitation,
  unarchiveChannel,
  withdrawOffer,
} from '../../server/services/housekeeping';
import { issueOffer, listMyOffers } from '../../server/services/offers';
import { listServices } from '../../server/services/catalog';
import { declineBooking, requestBooking } from '../../server/services/bookings';
import { listFreeSlots } from '../../server/services/catalog';
import { demoStreams } from './support/sse';
import { expectError, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';
import { callerOf, contextOf, count, opId } from './support/practice';
import { write } from '../../server/db/database';
import { FORMER_MEMBER_ID } from '../../core/leaving';
import { refusal } from '../support/refusal';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world));
const live = demoStreams(() => ({ server, ids }));

const as = (role: 'consultant' | 'member' | 'visitor' | 'admin'): Caller => callerOf(ids, role);
const ctx = () => contextOf(server);

/** A second consultant, to hand channels to. */
function secondConsultant(): Caller {
  const uid = 'SecondConsultant0001';
  write(ctx().db, () =>
    ctx().repos.users.insert({
      uid,
      email: 'lee@example.com',
      passwordHash: '',
      displayName: 'Lee',
      isOwner: true,
      createdAt: server.clock.now(),
    }),
  );
  return { uid, email: 'lee@example.com', isAdmin: false };
}

describe('describeChannelRemoval', () => {
  it('says first what archiving and deleting would do to what the channel holds', () => {
    const { contents, notice } = describeChannelRemoval(ctx(), as('consultant'), ids.growth);
    expect(contents).toEqual({
      title: 'Growth Clinic',
      messages: 5,
      files: 0,
      members: 2,
      pendingInvitations: 2,
      activeOffers: 1,
    });
    expect(notice.delete).toBe(
      'Deleting “Growth Clinic” removes its 5 messages and 0 files for everyone, for good. Its 2 members lose the channel, 2 waiting invitations stop working and 1 active offer is withdrawn. Sessions already booked stay booked.',
    );
    expect(refusal(() => describeChannelRemoval(ctx(), as('member'), ids.strategy)).status).toBe(
      'PERMISSION_DENIED',
    );
  });
});

describe('archiving', () => {
  it('makes a channel read-only until it is reopened, its messages kept', async () => {
    const memberStream = await live.open('member');
    archiveChannel(ctx(), as('consultant'), ids.strategy);
    expect((await memberStream.next('channel')).data).toMatchObject({
      channel: { id: ids.strategy, archivedAt: server.clock.now() },
    });
    const send = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.member,
      body: { text: 'Hello?' },
    });
    expectError(send, 400, 'FAILED_PRECONDITION', 'channel-archived');
    const read = await server.request('GET', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.member,
    });
    expect(read.json<{ messages: unknown[] }>().messages).toHaveLength(5);
    unarchiveChannel(ctx(), as('consultant'), ids.strategy);
    const again = await server.request('POST', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.member,
      body: { text: 'Back' },
    });
    expect(again.statusCode).toBe(200);
  });

  it('is the owner’s alone', () => {
    expect(refusal(() => archiveChannel(ctx(), as('member'), ids.strategy)).status).toBe('PERMISSION_DENIED');
    expect(refusal(() => archiveChannel(ctx(), as('admin'), ids.strategy)).status).toBe('PERMISSION_DENIED');
  });
});

describe('deleting a channel', () => {
  it('removes its messages, members, invitations and offers for everyone; bookings stay', async () => {
    const [checkIn] = listServices(ctx(), as('member'), ids.uid.consultant);
    const slot = listFreeSlots(ctx(), as('member'), {
      serviceId: checkIn?.id ?? '',
      from: server.clock.now(),
      to: server.clock.now() + 5 * DAY,
    }).slots[0];
    const booking = requestBooking(ctx(), as('member'), {
      serviceId: checkIn?.id ?? '',
      startsAt: slot?.startsAt ?? 0,
      paymentMethod: 'pass',
      clientTimeZone: 'UTC',
      operationId: opId(),
    });
    const memberStream = await live.open('member');
    await deleteChannel(ctx(), as('consultant'), ids.strategy);
    expect((await memberStream.next('channelRemoved')).data).toEqual({ channelId: ids.strategy });
    expect(count(server, 'SELECT COUNT(*) AS n FROM channels WHERE id = ?', ids.strategy)).toBe(0);
    expect(count(server, 'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ?', ids.strategy)).toBe(0);
    expect(
      count(server, 'SELECT COUNT(*) AS n FROM channel_members WHERE channel_id = ?', ids.strategy),
    ).toBe(0);
    expect(count(server, 'SELECT COUNT(*) AS n FROM offers WHERE channel_id = ?', ids.strategy)).toBe(0);
    expect(
      count(server, 'SELECT COUNT(*) AS n FROM pending_notifications WHERE source = ?', ids.strategy),
    ).toBe(0);
    expect(server.query('SELECT state FROM bookings WHERE id = ?', booking.id)).toEqual([
      { state: 'requested' },
    ]);
    expect(refusal(() => describeChannelRemoval(ctx(), as('consultant'), ids.strategy)).status).toBe(
      'NOT_FOUND',
    );
  });

  it('is refused to a member and an admin', async () => {
    await expect(deleteChannel(ctx(), as('member'), ids.strategy)).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
    });
    await expect(deleteChannel(ctx(), as('admin'), ids.strategy)).rejects.toMatchObject({
      status: 'PERMISSION_DENIED',
    });
    expect(count(server, 'SELECT COUNT(*) AS n FROM channels WHERE id = ?', ids.strategy)).toBe(1);
  });
});

describe('removing a member', () => {
  it('takes them out of the channel, keeps what they wrote, and withdraws their offers there', async () => {
    const memberStream = await live.open('member');
    const after = removeMember(ctx(), as('consultant'), { channelId: ids.strategy, userId: ids.uid.member });
    expect(after.members).toEqual([]);
    expect((await memberStream.next('channel')).data).toMatchObject({
      channel: { id: ids.strategy, members: [] },
    });
    expect(
      count(
        server,
        'SELECT COUNT(*) AS n FROM messages WHERE channel_id = ? AND sender_id = ?',
        ids.strategy,
        ids.uid.member,
      ),
    ).toBe(2);
    expect(
      count(
        server,
        `SELECT COUNT(*) AS n FROM offers WHERE user_id = ? AND status = 'active'`,
        ids.uid.member,
      ),
    ).toBe(0);
    const read = await server.request('GET', `/api/channels/${ids.strategy}/messages`, {
      token: ids.token.member,
    });
    expectError(read, 403, 'PERMISSION_DENIED');
  });

  it('refuses removing the owner, a non-member, or by a member', () => {
    expect(
      refusal(() =>
        removeMember(ctx(), as('consultant'), { channelId: ids.strategy, userId: ids.uid.consultant }),
      ).status,
    ).toBe('FAILED_PRECONDITION');
    expect(
      refusal(() =>
        removeMember(ctx(), as('consultant'), { channelId: ids.strategy, userId: ids.uid.visitor }),
      ).status,
    ).toBe('NOT_FOUND');
    expect(
      refusal(() => removeMember(ctx(), as('member'), { channelId: ids.strategy, userId: ids.uid.member }))
        .status,
    ).toBe('PERMISSION_DENIED');
  });
});

describe('revoking an invitation', () => {
  it('withdraws a waiting invitation: its link says so, and accepting it is refused', async () => {
    const revoked = revokeInvitation(ctx(), as('consultant'), ids.pendingInvitation);
    expect(revoked.status).toBe('revoked');
    expect(revokeInvitation(ctx(), as('consultant'), ids.pendingInvitation).status).toBe('revoked');
    const preview = await server.request('GET', `/api/invitations/${ids.pendingInvitation}/preview`);
    expect(preview.json()).toMatchObject({ state: 'withdrawn' });
    const accept = await server.request('POST', `/api/invitations/${ids.pendingInvitation}/accept`, {
      token: ids.token.visitor,
    });
    expectError(accept, 400, 'FAILED_PRECONDITION', 'invitation-revoked');
  });

  it('refuses an accepted invitation and someone else’s', () => {
    expect(refusal(() => revokeInvitation(ctx(), as('consultant'), ids.usedInvitation)).reason).toBe(
      'invitation-used',
    );
    expect(refusal(() => revokeInvitation(ctx(), as('member'), ids.pendingInvitation)).status).toBe(
      'PERMISSION_DENIED',
    );
  });
});

describe('withdrawing an offer', () => {
  it('withdraws an unused offer (a repeat changes nothing), and its person sees it so', () => {
    const [checkIn] = listServices(ctx(), as('consultant'), ids.uid.consultant);
    const offer = issueOffer(ctx(), as('consultant'), {
      channelId: ids.strategy,
      userId: ids.uid.member,
      serviceId: checkIn?.id ?? '',
      discountPercent: 10,
      source: 'Test',
      expiresAt: server.clock.now() + DAY,
    });
    expect(withdrawOffer(ctx(), as('consultant'), offer.offeringId).status).toBe('revoked');
    expect(withdrawOffer(ctx(), as('consultant'), offer.offeringId).status).toBe('revoked');
    expect(listMyOffers(ctx(), as('member')).find((o) => o.offeringId === offer.offeringId)?.state).toBe(
      'revoked',
    );
    expect(refusal(() => withdrawOffer(ctx(), as('member'), offer.offeringId)).status).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('posts an offer for a service as a card in the private consultation', () => {
    const [checkIn] = listServices(ctx(), as('consultant'), ids.uid.consultant);
    server.clock.value = Date.UTC(2026, 11, 1, 12);
    issueOffer(ctx(), as('consultant'), {
      channelId: ids.strategy,
      userId: ids.uid.member,
      serviceId: checkIn?.id ?? '',
      discountPercent: 20,
      source: 'Winter',
      expiresAt: Date.UTC(2026, 11, 4, 12),
    });
    expect(
      server.query(
        `SELECT m.text FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.kind = 'private' AND m.card IS NOT NULL`,
      ),
    ).toEqual([{ text: '20 % off Quick check-in until Fri 4 Dec' }]);
  });
});

describe('handing a channel over', () => {
  it('gives it to another consultant with its members and waiting invitations; the previous owner leaves it', () => {
    const lee = secondConsultant();
    const handed = handOverChannel(ctx(), as('consultant'), { channelId: ids.growth, toUid: lee.uid });
    expect(handed).toMatchObject({ ownerId: lee.uid, members: expect.arrayContaining([expect.any(String)]) });
    expect(handed.members).toHaveLength(2);
    expect(
      count(
        server,
        `SELECT COUNT(*) AS n FROM invitations WHERE channel_id = ? AND status = 'pending' AND consultant_id = ?`,
        ids.growth,
        lee.uid,
      ),
    ).toBe(2);
    expect(
      count(
        server,
        `SELECT COUNT(*) AS n FROM offers WHERE channel_id = ? AND status = 'active'`,
        ids.growth,
      ),
    ).toBe(0);
    expect(refusal(() => archiveChannel(ctx(), as('consultant'), ids.growth)).status).toBe(
      'PERMISSION_DENIED',
    );
  });

  it('lets an admin hand over too, and refuses a member or a target who is not a consultant', () => {
    const lee = secondConsultant();
    expect(handOverChannel(ctx(), as('admin'), { channelId: ids.strategy, toUid: lee.uid }).ownerId).toBe(
      lee.uid,
    );
    expect(
      refusal(() => handOverChannel(ctx(), as('member'), { channelId: ids.growth, toUid: lee.uid })).status,
    ).toBe('PERMISSION_DENIED');
    expect(
      refusal(() =>
        handOverChannel(ctx(), as('consultant'), { channelId: ids.growth, toUid: ids.uid.member }),
      ).status,
    ).toBe('FAILED_PRECONDITION');
  });

  it('lets a consultant leave QuPM once their channels are handed over or deleted', async () => {
    const lee = secondConsultant();
    const leave = () =>
      server.request('DELETE', `/api/users/${ids.uid.consultant}`, {
        token: ids.token.consultant,
        body: { password: 'qupm-demo' },
      });
    expectError(await leave(), 400, 'FAILED_PRECONDITION');
    const [checkIn] = listServices(ctx(), as('member'), ids.uid.consultant);
    const slot = listFreeSlots(ctx(), as('member'), {
      serviceId: checkIn?.id ?? '',
      from: server.clock.now(),
      to: server.clock.now() + 5 * DAY,
    }).slots[0];
    const booking = requestBooking(ctx(), as('member'), {
      serviceId: checkIn?.id ?? '',
      startsAt: slot?.startsAt ?? 0,
      paymentMethod: 'pass',
      clientTimeZone: 'UTC',
      operationId: opId(),
    });
    handOverChannel(ctx(), as('consultant'), { channelId: ids.strategy, toUid: lee.uid });
    await deleteChannel(ctx(), as('consultant'), ids.growth);
    // Their private consultation with the member (the booking's cards) is theirs too.
    await deleteChannel(ctx(), as('consultant'), booking.channelId);
    // A session still waiting for their answer keeps them here.
    expect(expectError(await leave(), 400, 'FAILED_PRECONDITION').message).toMatch(
      /a session booked with clients/,
    );
    // Declined: its mail goes; the conversation its consultant deleted stays deleted.
    expect(
      declineBooking(ctx(), as('consultant'), { bookingId: booking.id, operationId: opId() }).channelId,
    ).toBe('');
    const left = await leave();
    expect({ code: left.statusCode, body: left.body }).toEqual({ code: 200, body: '{"success":true}' });
    expect(count(server, 'SELECT COUNT(*) AS n FROM users WHERE uid = ?', ids.uid.consultant)).toBe(0);
    // Their services stay for the bookings that name them, archived, under the former member.
    expect(count(server, `SELECT COUNT(*) AS n FROM services WHERE status = 'active'`)).toBe(0);
  });
});

describe('a client leaving', () => {
  it('cancels the open sessions of a client who leaves, freeing their times; the bookings stay under the former member', async () => {
    const [checkIn] = listServices(ctx(), as('member'), ids.uid.consultant);
    const slot = listFreeSlots(ctx(), as('member'), {
      serviceId: checkIn?.id ?? '',
      from: server.clock.now(),
      to: server.clock.now() + 5 * DAY,
    }).slots[0];
    const booking = requestBooking(ctx(), as('member'), {
      serviceId: checkIn?.id ?? '',
      startsAt: slot?.startsAt ?? 0,
      paymentMethod: 'credits',
      clientTimeZone: 'UTC',
      operationId: opId(),
    });
    expect(
      count(server, 'SELECT COUNT(*) AS n FROM booking_cells WHERE booking_id = ?', booking.id),
    ).toBeGreaterThan(0);
    const left = await server.request('DELETE', `/api/users/${ids.uid.member}`, {
      token: ids.token.member,
      body: { password: 'qupm-demo' },
    });
    expect({ code: left.statusCode, body: left.body }).toEqual({ code: 200, body: '{"success":true}' });
    expect(
      ctx().db.prepare('SELECT state, client_id AS clientId FROM bookings WHERE id = ?').get(booking.id),
    ).toEqual({ state: 'cancelled', clientId: FORMER_MEMBER_ID });
    expect(count(server, 'SELECT COUNT(*) AS n FROM booking_cells WHERE booking_id = ?', booking.id)).toBe(0);
    expect(count(server, 'SELECT COUNT(*) AS n FROM ledger WHERE uid = ?', ids.uid.member)).toBe(0);
    expect(count(server, 'SELECT COUNT(*) AS n FROM operations WHERE uid = ?', ids.uid.member)).toBe(0);
    // The time is free again for someone else.
    expect(
      listFreeSlots(ctx(), as('consultant'), {
        serviceId: checkIn?.id ?? '',
        from: server.clock.now(),
        to: server.clock.now() + 5 * DAY,
      }).slots[0]?.startsAt,
    ).toBe(slot?.startsAt);
  });
});
