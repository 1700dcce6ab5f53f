// A consultant's housekeeping (core/housekeeping.ts): archive, delete, remove a member, revoke an invitation,
// hand a channel over; who may, and what each leaves.
import { QupmError } from '@core/errors';
import {
  assertCanDeleteChannel,
  assertOpenForMessages,
  planArchive,
  planHandOver,
  planRemoveMember,
  planRevokeInvitation,
  planUnarchive,
  removalNotice,
} from '@core/housekeeping';
import type { Channel, Invitation } from '@core/model';

const channel: Channel = {
  id: 'C1',
  channelId: 'studio',
  ownerId: 'dana',
  title: 'Studio',
  description: '',
  members: ['morgan', 'priya'],
  createdAt: 0,
};
const privateOne: Channel = { ...channel, id: 'P1', kind: 'private', members: ['morgan'], names: {} };
const invitation: Invitation = {
  id: 'I1',
  channelId: 'C1',
  channelTitle: 'Studio',
  consultantId: 'dana',
  consultantName: 'Dana',
  status: 'pending',
  passes: 0,
  credits: 1,
  expiresAt: 1000,
};

function statusOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof QupmError) return error.status;
    throw error;
  }
  return 'ok';
}

describe('archive', () => {
  it('stamps the channel archived, reopens it, and refuses new messages meanwhile', () => {
    const archived = planArchive(channel, 'dana', 50);
    expect(archived.archivedAt).toBe(50);
    expect(planArchive(archived, 'dana', 60).archivedAt).toBe(50);
    let caught: unknown;
    try {
      assertOpenForMessages(archived);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 'FAILED_PRECONDITION', reason: 'channel-archived' });
    const open = planUnarchive(archived, 'dana');
    expect(open.archivedAt).toBeUndefined();
    expect(() => assertOpenForMessages(open)).not.toThrow();
  });

  it('is for the owner only, and not for a private conversation', () => {
    expect(statusOf(() => planArchive(channel, 'morgan', 1))).toBe('PERMISSION_DENIED');
    expect(statusOf(() => planArchive(privateOne, 'dana', 1))).toBe('FAILED_PRECONDITION');
    expect(statusOf(() => planArchive(null, 'dana', 1))).toBe('NOT_FOUND');
  });
});

describe('assertCanDeleteChannel', () => {
  it('lets the owner delete a channel, and the consultant their private conversation', () => {
    expect(assertCanDeleteChannel(channel, 'dana')).toBe(channel);
    expect(assertCanDeleteChannel(privateOne, 'dana')).toBe(privateOne);
  });

  it('refuses a member, an empty uid, and a missing channel', () => {
    expect(statusOf(() => assertCanDeleteChannel(channel, 'morgan'))).toBe('PERMISSION_DENIED');
    expect(statusOf(() => assertCanDeleteChannel({ ...channel, ownerId: '' }, ''))).toBe('PERMISSION_DENIED');
    expect(statusOf(() => assertCanDeleteChannel(null, 'dana'))).toBe('NOT_FOUND');
  });
});

describe('removalNotice', () => {
  it('says what archiving and deleting do to what the channel holds', () => {
    const notice = removalNotice({
      title: 'Studio',
      messages: 120,
      files: 1,
      members: 2,
      pendingInvitations: 1,
      activeOffers: 0,
    });
    expect(notice.archive).toBe(
      'Archiving “Studio” keeps its 120 messages and 1 file readable by its 2 members; nobody can send anything new until you reopen it.',
    );
    expect(notice.delete).toBe(
      'Deleting “Studio” removes its 120 messages and 1 file for everyone, for good. Its 2 members lose the channel, 1 waiting invitation stops working and 0 active offers are withdrawn. Sessions already booked stay booked.',
    );
  });

  it('says a channel’s one member loses it (seen on the Firebase build’s delete screen)', () => {
    const notice = removalNotice({
      title: 'Beta',
      messages: 0,
      files: 1,
      members: 1,
      pendingInvitations: 0,
      activeOffers: 1,
    });
    expect(notice.delete).toBe(
      'Deleting “Beta” removes its 0 messages and 1 file for everyone, for good. Its 1 member loses the channel, 0 waiting invitations stop working and 1 active offer is withdrawn. Sessions already booked stay booked.',
    );
  });
});

describe('planRemoveMember', () => {
  it('takes the member out', () => {
    expect(planRemoveMember(channel, 'dana', 'morgan').members).toEqual(['priya']);
  });

  it.each<[string, () => unknown, string]>([
    ['a non-member', () => planRemoveMember(channel, 'dana', 'sam'), 'NOT_FOUND'],
    ['the owner', () => planRemoveMember(channel, 'dana', 'dana'), 'FAILED_PRECONDITION'],
    ['by a member', () => planRemoveMember(channel, 'priya', 'morgan'), 'PERMISSION_DENIED'],
    [
      'from a private conversation',
      () => planRemoveMember(privateOne, 'dana', 'morgan'),
      'FAILED_PRECONDITION',
    ],
  ])('refuses removing %s', (_label, run, status) => {
    expect(statusOf(run)).toBe(status);
  });
});

describe('planRevokeInvitation', () => {
  it('revokes a waiting or expired invitation, and a repeat changes nothing', () => {
    expect(planRevokeInvitation(invitation, channel, 'dana', 10)?.status).toBe('revoked');
    expect(planRevokeInvitation(invitation, channel, 'dana', 5000)?.status).toBe('revoked');
    expect(planRevokeInvitation({ ...invitation, status: 'revoked' }, channel, 'dana', 10)).toBeNull();
  });

  it('refuses an accepted one, someone else’s, and a missing one', () => {
    expect(
      statusOf(() =>
        planRevokeInvitation({ ...invitation, status: 'accepted', acceptedBy: 'm' }, channel, 'dana', 10),
      ),
    ).toBe('FAILED_PRECONDITION');
    expect(statusOf(() => planRevokeInvitation(invitation, channel, 'morgan', 10))).toBe('PERMISSION_DENIED');
    expect(statusOf(() => planRevokeInvitation(null, channel, 'dana', 10))).toBe('NOT_FOUND');
  });
});

describe('planHandOver', () => {
  const owner = { uid: 'dana', isAdmin: false };

  it('makes the new consultant the owner, out of the members, and names the previous one', () => {
    const result = planHandOver({
      channel: { ...channel, members: ['morgan', 'lee'] },
      caller: owner,
      target: { uid: 'lee', isOwner: true },
    });
    expect(result.channel).toMatchObject({ ownerId: 'lee', members: ['morgan'] });
    expect(result.previousOwnerId).toBe('dana');
  });

  it('lets an admin hand over any channel', () => {
    expect(
      planHandOver({ channel, caller: { uid: 'root', isAdmin: true }, target: { uid: 'lee', isOwner: true } })
        .channel.ownerId,
    ).toBe('lee');
  });

  it.each<[string, Parameters<typeof planHandOver>[0], string]>([
    [
      'to someone who is not a consultant',
      { channel, caller: owner, target: { uid: 'morgan', isOwner: false } },
      'FAILED_PRECONDITION',
    ],
    ['to nobody', { channel, caller: owner, target: null }, 'NOT_FOUND'],
    [
      'to its owner',
      { channel, caller: owner, target: { uid: 'dana', isOwner: true } },
      'FAILED_PRECONDITION',
    ],
    [
      'by a member',
      { channel, caller: { uid: 'morgan', isAdmin: false }, target: { uid: 'lee', isOwner: true } },
      'PERMISSION_DENIED',
    ],
    [
      'a private conversation',
      { channel: privateOne, caller: owner, target: { uid: 'lee', isOwner: true } },
      'FAILED_PRECONDITION',
    ],
  ])('refuses a hand-over %s', (_label, input, status) => {
    expect(statusOf(() => planHandOver(input))).toBe(status);
  });
});
