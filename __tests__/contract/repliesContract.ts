// The port contract of replies and reactions (core/replies.ts, core/reactions.ts), run by portContract.ts on both
// adapters: a reply carries the quote of a message of its own channel and nothing else; a deleted original's quote
// keeps none of its words; a reaction is one of the set, one a person, taken back by choosing null; both reach
// another window live as new versions of the message.
import type { Backend, NewMessage } from '@/backend/ports';
import { newDocumentId } from '@core/ids';
import { mergeMessages, sinceOf } from '@core/messages';
import type { ChatMessage } from '@core/model';
import { REACTION_MESSAGES } from '@core/reactions';
import type { Reaction } from '@core/reactions';
import { REPLY_MESSAGES, REPLY_SNIPPET_MAX } from '@core/replies';
import { eventually } from '../support/eventually';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, MESSAGES, PEOPLE } from './support/world';

const msg = (text: string, replyTo?: string): NewMessage => ({
  id: newDocumentId(),
  text,
  ...(replyTo !== undefined ? { replyTo } : {}),
});

export function describeRepliesContract(harness: () => Harness): void {
  const studio = CHANNELS.studio.id;
  const [welcome, thanks] = MESSAGES as [ChatMessage, ChatMessage, ChatMessage];

  describe('replies (issue 23 part 5)', () => {
    it('stores the quote of the message replied to: its id, sender and snippet, read back alike by everyone', async () => {
      const member = await harness().as('member');
      const reply = await member.messages.sendMessage(studio, msg('Happy to be here', welcome.id));
      expect(reply.replyTo).toStrictEqual({
        id: welcome.id,
        senderId: PEOPLE.consultant.uid,
        senderName: 'Dana',
        snippet: 'Welcome!',
      });
      const listed = await (await harness().as('consultant')).messages.listMessages(studio);
      expect(listed.find((m) => m.id === reply.id)).toStrictEqual(reply);
    });

    it('quotes a long message by a one-line snippet of at most 120 characters', async () => {
      const consultant = await harness().as('consultant');
      const long = await consultant.messages.sendMessage(studio, msg(`First line\n\n${'word '.repeat(60)}`));
      const member = await harness().as('member');
      const reply = await member.messages.sendMessage(studio, msg('Noted', long.id));
      expect(reply.replyTo?.snippet).toMatch(/^First line word word .*…$/);
      expect(reply.replyTo?.snippet.length).toBeLessThanOrEqual(REPLY_SNIPPET_MAX);
    });

    it('refuses a reply to a message of another channel, or to none, and stores nothing', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const elsewhere = await consultant.messages.sendMessage(CHANNELS.clinic.id, msg('Clinic only'));
      const refused = msg('Sneaky', elsewhere.id);
      const outside = await failure(consultant.messages.sendMessage(studio, refused));
      expect(outside).toMatchObject({ status: 'NOT_FOUND', message: REPLY_MESSAGES.notInChannel });
      const missing = await failure(consultant.messages.sendMessage(studio, msg('Nobody', newDocumentId())));
      expect(missing).toMatchObject({ status: 'NOT_FOUND', message: REPLY_MESSAGES.notInChannel });
      const listed = await consultant.messages.listMessages(studio);
      expect(listed.map(({ id }) => id)).toEqual(MESSAGES.map(({ id }) => id));
    });

    it('refuses a reply to a deleted message', async () => {
      const member = await harness().as('member');
      await member.messages.deleteMessage(studio, thanks.id);
      const refused = await failure(member.messages.sendMessage(studio, msg('Hm?', thanks.id)));
      expect(refused).toMatchObject({ status: 'FAILED_PRECONDITION', message: REPLY_MESSAGES.deleted });
    });

    it('a reply sent again under its id answers the stored reply', async () => {
      const member = await harness().as('member');
      const reply = msg('Once', welcome.id);
      const first = await member.messages.sendMessage(studio, reply);
      expect(await member.messages.sendMessage(studio, reply)).toStrictEqual(first);
    });
  });

  describe('reactions (issue 23 part 5)', () => {
    it('sets, replaces and takes back a person’s own reaction, each person once', async () => {
      const member = await harness().as('member');
      const consultant = await harness().as('consultant');
      const liked = await member.messages.reactToMessage(studio, welcome.id, '👍');
      expect(liked.reactions).toStrictEqual({ [PEOPLE.member.uid]: '👍' });
      expect(liked.updatedAt).toEqual(expect.any(Number));
      const both = await consultant.messages.reactToMessage(studio, welcome.id, '❤️');
      expect(both.reactions).toStrictEqual({ [PEOPLE.member.uid]: '👍', [PEOPLE.consultant.uid]: '❤️' });
      const replaced = await member.messages.reactToMessage(studio, welcome.id, '🙏');
      expect(replaced.reactions).toStrictEqual({ [PEOPLE.member.uid]: '🙏', [PEOPLE.consultant.uid]: '❤️' });
      const back = await member.messages.reactToMessage(studio, welcome.id, null);
      expect(back.reactions).toStrictEqual({ [PEOPLE.consultant.uid]: '❤️' });
      const listed = await member.messages.listMessages(studio);
      expect(listed[0]).toStrictEqual(back);
      const none = await consultant.messages.reactToMessage(studio, welcome.id, null);
      expect(none.reactions).toBeUndefined();
    });

    it('refuses a reaction outside the set with clear words, and writes nothing', async () => {
      const member = await harness().as('member');
      for (const emoji of ['🍕', '', 'x'.repeat(10_000), 42, { '👍': true }]) {
        const refused = await failure(
          member.messages.reactToMessage(studio, welcome.id, emoji as unknown as Reaction),
        );
        expect(refused).toMatchObject({ status: 'INVALID_ARGUMENT', message: REACTION_MESSAGES.notInSet });
      }
      const listed = await member.messages.listMessages(studio);
      expect(listed[0]?.reactions).toBeUndefined();
    });

    it('refuses someone outside the channel, an unknown message and a deleted one', async () => {
      const h = harness();
      const visitor = await h.as('visitor');
      expect(await failure(visitor.messages.reactToMessage(studio, welcome.id, '👍'))).toMatchObject({
        status: 'PERMISSION_DENIED',
      });
      const member = await h.as('member');
      expect(await failure(member.messages.reactToMessage(studio, newDocumentId(), '👍'))).toMatchObject({
        status: 'NOT_FOUND',
      });
      await member.messages.reactToMessage(studio, thanks.id, '😂');
      const tombstone = await member.messages.deleteMessage(studio, thanks.id);
      expect(tombstone.reactions).toBeUndefined();
      expect(await failure(member.messages.reactToMessage(studio, thanks.id, '👍'))).toMatchObject({
        status: 'FAILED_PRECONDITION',
        message: REACTION_MESSAGES.deleted,
      });
    });

    it('sends no push and counts nothing pending for a reaction', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const sent = await consultant.messages.sendMessage(studio, msg('Ping'));
      await h.settle();
      expect(await h.pendingCounts(PEOPLE.member.uid)).toEqual({ [studio]: 1 });
      await (await h.as('member')).messages.reactToMessage(studio, sent.id, '👍');
      await h.settle();
      expect(await h.pendingCounts(PEOPLE.member.uid)).toEqual({ [studio]: 1 });
    });
  });

  describe('replies and reactions, live (issue 23 part 5)', () => {
    async function follow(backend: Backend) {
      const held = await backend.messages.listMessages(studio);
      const received: ChatMessage[] = [];
      const stop = backend.messages.subscribeMessages(
        studio,
        sinceOf(held, CHANNELS.studio.createdAt),
        (batch) => received.push(...batch),
      );
      await new Promise<void>((resolve) => {
        const off = backend.live.subscribeStatus((now) => {
          if (now !== 'live') return;
          queueMicrotask(() => off());
          resolve();
        });
      });
      return { held, received, stop };
    }

    it('delivers a reaction and its taking back to another window, each once, in place of the old copy', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const live = await follow(consultant);
      const member = await h.as('member');
      await h.advance(1);
      const liked = await member.messages.reactToMessage(studio, welcome.id, '👍');
      await h.settle();
      await eventually(() => expect(live.received).toStrictEqual([liked]));
      await h.advance(1);
      const back = await member.messages.reactToMessage(studio, welcome.id, null);
      await h.settle();
      await eventually(() => expect(live.received).toStrictEqual([liked, back]));
      expect(mergeMessages(live.held, live.received)[0]).toStrictEqual(back);
      live.stop();
    });

    it('a deleted original leaves the replies quoting it without its words, in every window', async () => {
      const h = harness();
      const consultant = await h.as('consultant');
      const member = await h.as('member');
      const original = await consultant.messages.sendMessage(studio, msg('Secret plan'));
      const reply = await member.messages.sendMessage(studio, msg('Love it', original.id));
      await h.settle();
      const live = await follow(member);
      await h.advance(1);
      await consultant.messages.deleteMessage(studio, original.id);
      await h.settle();
      await eventually(async () => {
        const listed = await member.messages.listMessages(studio);
        expect(listed.find((m) => m.id === reply.id)?.replyTo).toStrictEqual({
          ...reply.replyTo,
          snippet: '',
        });
      });
      await eventually(() => expect(live.received.find((m) => m.id === reply.id)?.replyTo?.snippet).toBe(''));
      live.stop();
    });
  });
}
