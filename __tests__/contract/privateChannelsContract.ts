// The port contract of private consultations, run by portContract.ts on both adapters: one per
// pair whoever opens it and however many windows ask at once, read and written by its two participants only (a
// third client of the same channel and an admin get none of its messages), no management, and the invitation
// "for a private consultation" that opens one on accept.
import type { Backend, NewMessage } from '@/backend/ports';
import { newDocumentId } from '@core/ids';
import { FORMER_MEMBER_ID, FORMER_MEMBER_NAME } from '@core/leaving';
import { sinceOf } from '@core/messages';
import { channelDisplayName } from '@core/privateChannels';
import type { ChatMessage } from '@core/model';
import { eventually } from '../support/eventually';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, PASSWORD, PEOPLE, START } from './support/world';

const DAY = 86_400_000;
const msg = (text: string): NewMessage => ({ id: newDocumentId(), text });

const statusOf = async (call: Promise<unknown>): Promise<string> => (await failure(call)).status;

export function describePrivateChannelContract(harness: () => Harness): void {
  describe('private consultations (issue #13 part 5)', () => {
    const open = (backend: Backend, withUid: string) =>
      backend.channels.openPrivateChannel({ withUid, viaChannelId: CHANNELS.studio.id });

    /** The visitor becomes a second client of Strategy Studio (a third person of the channel). */
    async function thirdClient(): Promise<Backend> {
      const h = harness();
      const invitation = await (
        await h.as('consultant')
      ).invitations.createInvitation({
        channelId: CHANNELS.studio.id,
        inviteeEmail: PEOPLE.visitor.email,
        passes: 0,
        credits: 0,
        expiresAt: START + DAY,
      });
      const visitor = await h.as('visitor');
      await visitor.invitations.acceptInvitation(invitation.id);
      await h.settle();
      return visitor;
    }

    it('opens one per pair: a client with their consultant, and the consultant with that client, get the same', async () => {
      const h = harness();
      const member = await h.as('member');
      const opened = await open(member, PEOPLE.consultant.uid);
      expect(opened).toMatchObject({
        kind: 'private',
        ownerId: PEOPLE.consultant.uid,
        members: [PEOPLE.member.uid],
        names: { [PEOPLE.consultant.uid]: 'Dana', [PEOPLE.member.uid]: 'Morgan' },
        title: 'Dana and Morgan',
      });
      expect(await open(member, PEOPLE.consultant.uid)).toStrictEqual(opened);
      expect(await open(await h.as('consultant'), PEOPLE.member.uid)).toStrictEqual(opened);
    });

    it('makes one when two windows open it at once', async () => {
      const h = harness();
      const [a, b] = await Promise.all([h.as('member'), h.as('member')]);
      const [first, second] = await Promise.all([
        open(a, PEOPLE.consultant.uid),
        open(b, PEOPLE.consultant.uid),
      ]);
      expect(second.id).toBe(first.id);
      const privates = (await a.channels.listMyChannels()).filter((c) => c.kind === 'private');
      expect(privates.map((c) => c.id)).toEqual([first.id]);
    });

    it('follows a participant’s new name: the other one lists it under the name they go by now', async () => {
      const h = harness();
      const member = await h.as('member');
      const consultant = await h.as('consultant');
      const channel = await open(member, PEOPLE.consultant.uid);
      await member.users.updateProfile(PEOPLE.member.uid, { nickname: 'Morgana' });
      await h.settle();
      // On Firebase a trigger writes it after the profile: the check waits for it.
      await eventually(
        async () => {
          const listed = (await consultant.channels.listOverview()).find((o) => o.channel.id === channel.id);
          expect(listed?.channel).toMatchObject({
            names: { [PEOPLE.consultant.uid]: 'Dana', [PEOPLE.member.uid]: 'Morgana' },
            title: 'Dana and Morgana',
          });
        },
        { timeoutMs: 10_000 },
      );
    });

    it('is read and written by its two participants, listed in both overviews with its unread count', async () => {
      const h = harness();
      const member = await h.as('member');
      const consultant = await h.as('consultant');
      const channel = await open(member, PEOPLE.consultant.uid);
      const question = await member.messages.sendMessage(channel.id, msg('Can we talk about my fees?'));
      await h.advance(10);
      const answer = await consultant.messages.sendMessage(channel.id, msg('Of course.'));
      await h.settle();
      expect(await member.messages.listMessages(channel.id)).toStrictEqual([question, answer]);
      expect(await consultant.messages.listMessages(channel.id)).toStrictEqual([question, answer]);
      const mine = (await member.channels.listOverview()).find((o) => o.channel.id === channel.id);
      expect(mine).toMatchObject({ lastMessage: answer, unread: 1 });
      const theirs = (await consultant.channels.listOverview()).find((o) => o.channel.id === channel.id);
      expect(theirs).toMatchObject({ lastMessage: answer, unread: 1 });
    });

    it('delivers its messages live to the other participant', async () => {
      const h = harness();
      const member = await h.as('member');
      const channel = await open(member, PEOPLE.consultant.uid);
      const received: ChatMessage[] = [];
      const stop = member.messages.subscribeMessages(channel.id, sinceOf([], channel.createdAt), (batch) =>
        received.push(...batch),
      );
      await h.advance(10);
      const sent = await (await h.as('consultant')).messages.sendMessage(channel.id, msg('Just us here'));
      await h.settle();
      await eventually(() => expect(received).toStrictEqual([sent]));
      stop();
    });

    it('a third client of the same channel cannot read it, write in it, or find it in their lists', async () => {
      const h = harness();
      const member = await h.as('member');
      const channel = await open(member, PEOPLE.consultant.uid);
      await member.messages.sendMessage(channel.id, msg('Between us'));
      await h.settle();
      const visitor = await thirdClient();
      expect(await statusOf(visitor.messages.listMessages(channel.id))).toBe('PERMISSION_DENIED');
      expect(await statusOf(visitor.messages.sendMessage(channel.id, msg('Let me in')))).toBe(
        'PERMISSION_DENIED',
      );
      expect(await statusOf(visitor.channels.markRead(channel.id, newDocumentId()))).toBe(
        'PERMISSION_DENIED',
      );
      expect((await visitor.channels.listOverview()).map((o) => o.channel.id)).toEqual([CHANNELS.studio.id]);
      expect((await visitor.channels.listMyChannels()).map((c) => c.id)).toEqual([CHANNELS.studio.id]);
      // Two clients of a channel have no private conversation of their own: only with its consultant.
      expect(await statusOf(open(visitor, PEOPLE.member.uid))).toBe('PERMISSION_DENIED');
    });

    it('shows admins that it exists, never its messages', async () => {
      const h = harness();
      const member = await h.as('member');
      const channel = await open(member, PEOPLE.consultant.uid);
      await member.messages.sendMessage(channel.id, msg('Confidential'));
      await h.settle();
      const admin = await h.as('admin');
      const listed = (await admin.admin.listChannels()).find((c) => c.channel.id === channel.id);
      expect(listed).toMatchObject({
        channel: { kind: 'private', title: 'Dana and Morgan' },
        ownerName: 'Dana',
      });
      expect(await statusOf(admin.messages.listMessages(channel.id))).toBe('PERMISSION_DENIED');
      // An ordinary channel's messages stay readable by admins.
      expect(await admin.messages.listMessages(CHANNELS.studio.id)).toHaveLength(3);
    });

    it('refuses a conversation with oneself, with someone not met in the channel, and through a channel one is not in', async () => {
      const h = harness();
      const member = await h.as('member');
      expect(await statusOf(open(member, PEOPLE.member.uid))).toBe('INVALID_ARGUMENT');
      expect(await statusOf(open(member, PEOPLE.visitor.uid))).toBe('PERMISSION_DENIED');
      expect(await statusOf(open(await h.as('consultant'), PEOPLE.visitor.uid))).toBe('PERMISSION_DENIED');
      expect(
        await statusOf(
          member.channels.openPrivateChannel({
            withUid: PEOPLE.consultant.uid,
            viaChannelId: CHANNELS.clinic.id,
          }),
        ),
      ).toBe('PERMISSION_DENIED');
      expect(
        await statusOf(
          member.channels.openPrivateChannel({
            withUid: PEOPLE.consultant.uid,
            viaChannelId: 'NoSuchChannel0000001',
          }),
        ),
      ).toBe('NOT_FOUND');
      expect(
        await statusOf(
          h.signedOut().channels.openPrivateChannel({
            withUid: PEOPLE.consultant.uid,
            viaChannelId: CHANNELS.studio.id,
          }),
        ),
      ).toBe('UNAUTHENTICATED');
      expect((await member.channels.listMyChannels()).some((c) => c.kind === 'private')).toBe(false);
    });

    it('has no management: no edits, invitations or offers in it, and its consultant is not its owner', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const channel = await open(consultant, PEOPLE.member.uid);
      expect(await consultant.callables.checkChannelPermissions({ channel_id: channel.id })).toStrictEqual({
        permissions: { canMessage: true, isOwner: false },
      });
      expect(await statusOf(consultant.channels.updateChannel(channel.id, { title: 'Renamed' }))).toBe(
        'FAILED_PRECONDITION',
      );
      expect(
        await statusOf(
          consultant.invitations.createInvitation({
            channelId: channel.id,
            passes: 0,
            credits: 0,
            expiresAt: START + DAY,
          }),
        ),
      ).toBe('FAILED_PRECONDITION');
      expect(
        await statusOf(
          consultant.offers.issueOffer({
            channelId: channel.id,
            userId: PEOPLE.member.uid,
            serviceId: newDocumentId(),
            discountPercent: 10,
            expiresAt: START + DAY,
          }),
        ),
      ).toBe('FAILED_PRECONDITION');
      expect(
        await statusOf(
          open(consultant, PEOPLE.member.uid).then((c) =>
            consultant.channels.openPrivateChannel({ withUid: PEOPLE.member.uid, viaChannelId: c.id }),
          ),
        ),
      ).toBe('FAILED_PRECONDITION');
    });

    it('lets each participant delete only their own messages: its consultant is no owner there', async () => {
      const h = harness();
      const member = await h.as('member');
      const consultant = await h.as('consultant');
      const channel = await open(member, PEOPLE.consultant.uid);
      const mine = await member.messages.sendMessage(channel.id, msg('Mine to delete'));
      await h.settle();
      expect(await statusOf(consultant.messages.deleteMessage(channel.id, mine.id))).toBe(
        'PERMISSION_DENIED',
      );
      expect(await member.messages.deleteMessage(channel.id, mine.id)).toMatchObject({ id: mine.id });
    });

    it('stays with its client, read-only under a former member, when its consultant deletes their account', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const member = await h.as('member');
      const channel = await open(consultant, PEOPLE.member.uid);
      await consultant.messages.sendMessage(channel.id, msg('Let us talk here'));
      await member.messages.sendMessage(channel.id, msg('Gladly'));
      await h.settle();
      // Their channels go first; a private consultation is none of theirs to hand over, and no reason to stay.
      await consultant.housekeeping.deleteChannel(CHANNELS.clinic.id);
      const refused = await failure(consultant.users.deleteMyAccount(PEOPLE.consultant.uid, PASSWORD));
      expect(refused.message).toMatch(/Strategy Studio/);
      expect(refused.message).not.toMatch(/Dana and Morgan/);
      await consultant.housekeeping.deleteChannel(CHANNELS.studio.id);
      await consultant.users.deleteMyAccount(PEOPLE.consultant.uid, PASSWORD);
      await h.settle();

      const kept = await member.channels.getChannel(channel.id);
      expect(kept).toMatchObject({
        kind: 'private',
        ownerId: FORMER_MEMBER_ID,
        members: [PEOPLE.member.uid],
      });
      expect(kept?.archivedAt).toEqual(expect.any(Number));
      expect(kept && channelDisplayName(kept, PEOPLE.member.uid)).toBe(FORMER_MEMBER_NAME);
      const messages = await member.messages.listMessages(channel.id);
      expect(Object.fromEntries(messages.map((m) => [m.text, m.senderName]))).toEqual({
        'Let us talk here': FORMER_MEMBER_NAME,
        Gladly: 'Morgan',
      });
      expect(await statusOf(member.messages.sendMessage(channel.id, msg('Are you there?')))).toBe(
        'FAILED_PRECONDITION',
      );
    });

    it('an invitation for a private consultation opens one with the consultant on accept, not the channel', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const invitation = await consultant.invitations.createInvitation({
        channelId: CHANNELS.clinic.id,
        inviteeEmail: PEOPLE.visitor.email,
        passes: 1,
        credits: 0,
        expiresAt: START + DAY,
        privateConsultation: true,
      });
      expect(invitation.privateConsultation).toBe(true);
      const visitor = await h.as('visitor');
      expect(await visitor.invitations.getInvitation(invitation.id)).toMatchObject({
        privateConsultation: true,
      });
      const accepted = await visitor.invitations.acceptInvitation(invitation.id);
      await h.settle();
      expect(accepted).toMatchObject({ status: 'accepted', privateConsultation: true });
      const channels = await visitor.channels.listMyChannels();
      expect(channels).toHaveLength(1);
      expect(channels[0]).toMatchObject({
        id: accepted.privateChannelId,
        kind: 'private',
        ownerId: PEOPLE.consultant.uid,
        members: [PEOPLE.visitor.uid],
      });
      // The same conversation the consultant finds in their list; the clinic did not gain a member.
      expect((await consultant.channels.listMyChannels()).map((c) => c.id)).toContain(
        accepted.privateChannelId,
      );
      expect((await consultant.channels.getChannel(CHANNELS.clinic.id))?.members).toEqual([]);
      // The invitation still activates: what it grants is the same.
      const { user } = await visitor.invitations.activateInvitation(invitation.id);
      expect(user.passCount).toBe(1);
    });
  });
}
