// The port contract of read receipts and typing, run by portContract.ts on both adapters: a read mark and a
// delivered mark show to the channel's other participants (forward only), live too; someone who turns receipts
// off is in nobody's list and sees none; typing reaches the others live and never the typer; strangers, unknown
// messages and bad ids are refused with the same error kinds.
import type { Backend, TypingSignal } from '@/backend/ports';
import type { Receipt } from '@core/receipts';
import { eventually } from '../support/eventually';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, MESSAGES, PEOPLE } from './support/world';

const STUDIO = CHANNELS.studio.id;
const [first, , third] = MESSAGES as [(typeof MESSAGES)[0], (typeof MESSAGES)[1], (typeof MESSAGES)[2]];
const cursor = (message: { createdAt: number; id: string }) => ({
  createdAt: message.createdAt,
  id: message.id,
});
/** A typer's pace: a signal every quarter second at most (the server limits typing signals a minute). */
const AS_A_TYPER = { everyMs: 250, timeoutMs: 5_000 };
const of = (receipts: Receipt[], uid: string) => receipts.find((receipt) => receipt.uid === uid);

export function describeReceiptsContract(harness: () => Harness): void {
  describe('read receipts (issue #23 part 2)', () => {
    const stops: Array<() => void> = [];
    afterEach(() => {
      for (const stop of stops.splice(0)) stop();
    });
    const follow = (backend: Backend) => {
      const received: Receipt[][] = [];
      stops.push(backend.receipts.subscribeReceipts(STUDIO, (receipts) => received.push(receipts)));
      return { last: () => received.at(-1) };
    };

    it("shows a member's read mark, with when it moved, to the consultant, and never their own", async () => {
      const h = harness();
      const member = await h.as('member');
      await member.channels.markRead(STUDIO, third.id);
      await h.settle();
      const consultant = await h.as('consultant');
      const theirs = of(await consultant.receipts.listReceipts(STUDIO), PEOPLE.member.uid);
      expect(theirs).toEqual({
        uid: PEOPLE.member.uid,
        name: expect.stringMatching(/\S/),
        read: cursor(third),
        readAt: expect.any(Number),
        delivered: null,
      });
      expect(of(await member.receipts.listReceipts(STUDIO), PEOPLE.member.uid)).toBeUndefined();
    });

    it('moves a delivered mark forward only, and delivers it live to the sender', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const live = follow(consultant);
      const member = await h.as('member');
      await member.receipts.markDelivered(STUDIO, third.id);
      await member.receipts.markDelivered(STUDIO, first.id);
      await h.settle();
      await eventually(() =>
        expect(of(live.last() ?? [], PEOPLE.member.uid)?.delivered).toEqual(cursor(third)),
      );
      expect(of(await consultant.receipts.listReceipts(STUDIO), PEOPLE.member.uid)?.delivered).toEqual(
        cursor(third),
      );
    });

    it('keeps the marks of someone who turned receipts off from everyone, and shows them none either', async () => {
      const h = harness();
      const member = await h.as('member');
      const consultant = await h.as('consultant');
      await consultant.channels.markRead(STUDIO, third.id);
      await member.channels.markRead(STUDIO, third.id);
      await h.settle();
      expect(await member.receipts.getSettings()).toEqual({ enabled: true });
      expect(of(await member.receipts.listReceipts(STUDIO), PEOPLE.consultant.uid)?.read).toEqual(
        cursor(third),
      );
      expect(await member.receipts.setSettings({ enabled: false })).toEqual({ enabled: false });
      await h.settle();
      expect(await member.receipts.getSettings()).toEqual({ enabled: false });
      expect(of(await consultant.receipts.listReceipts(STUDIO), PEOPLE.member.uid)).toBeUndefined();
      expect(await member.receipts.listReceipts(STUDIO)).toEqual([]);
      await member.receipts.setSettings({ enabled: true });
      await h.settle();
      expect(of(await consultant.receipts.listReceipts(STUDIO), PEOPLE.member.uid)?.read).toEqual(
        cursor(third),
      );
    });

    it('refuses a delivered mark from outside the channel, for an unknown message or a malformed id', async () => {
      const h = harness();
      const visitor = await h.as('visitor');
      const member = await h.as('member');
      expect((await failure(visitor.receipts.markDelivered(STUDIO, third.id))).status).toBe(
        'PERMISSION_DENIED',
      );
      expect((await failure(member.receipts.markDelivered(STUDIO, 'NoSuchMessage0000001'))).status).toBe(
        'NOT_FOUND',
      );
      expect((await failure(member.receipts.markDelivered(STUDIO, 'not an id'))).status).toBe(
        'INVALID_ARGUMENT',
      );
    });
  });

  describe('typing (issue #23 part 3)', () => {
    const stops: Array<() => void> = [];
    afterEach(() => {
      for (const stop of stops.splice(0)) stop();
    });
    const listen = (backend: Backend) => {
      const heard: TypingSignal[] = [];
      stops.push(backend.typing.subscribeTyping(STUDIO, (signal) => heard.push(signal)));
      return heard;
    };

    it("tells the channel's other participants who is typing, live, and never the typer", async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const member = await h.as('member');
      const atConsultant = listen(consultant);
      const atMember = listen(member);
      // A typer signals again every few seconds while they type: a listener still connecting hears a later one.
      await eventually(async () => {
        await member.typing.sendTyping(STUDIO);
        expect(atConsultant).toContainEqual({ uid: PEOPLE.member.uid, name: expect.stringMatching(/\S/) });
      }, AS_A_TYPER);
      await eventually(async () => {
        await consultant.typing.sendTyping(STUDIO);
        expect(atMember).toContainEqual(expect.objectContaining({ uid: PEOPLE.consultant.uid }));
      }, AS_A_TYPER);
      expect(atMember.map((signal) => signal.uid)).not.toContain(PEOPLE.member.uid);
    });

    it('refuses someone outside the channel', async () => {
      const h = harness();
      expect((await failure((await h.as('visitor')).typing.sendTyping(STUDIO))).status).toBe(
        'PERMISSION_DENIED',
      );
    });
  });
}
