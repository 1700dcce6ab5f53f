// The port contract of message search (core/search.ts), run by portContract.ts on both adapters: words found by
// their start, in one channel or across the person's own, newest first and paged; never a hit from a channel the
// person is not in (two people in two channels); a deleted message never, an edited one by its new words only; and
// bad input (10,000 characters, "*", FTS and SQL syntax, nothing) a clear error or no hits, never a failure.
import type { Backend, NewMessage } from '@/backend/ports';
import { newDocumentId } from '@core/ids';
import { SEARCH_MESSAGES } from '@core/search';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, INVITATIONS } from './support/world';

const msg = (text: string): NewMessage => ({ id: newDocumentId(), text });

const texts = (page: { hits: Array<{ text: string }> }) => page.hits.map((hit) => hit.text);

export function describeSearchContract(harness: () => Harness): void {
  describe('message search (issue #23 part 6)', () => {
    /** Sends each text in turn (each later than the one before), then lets the backend index them. */
    async function post(backend: Backend, channelId: string, ...lines: string[]) {
      const sent = [];
      for (const line of lines) {
        sent.push(await backend.messages.sendMessage(channelId, msg(line)));
        await harness().advance(5);
      }
      await harness().settle();
      return sent;
    }

    it('finds messages by the start of their words, without case or accents, newest first', async () => {
      const member = await harness().as('member');
      const consultant = await harness().as('consultant');
      await post(member, CHANNELS.studio.id, 'The Quarterly plan is ready', 'Nothing to see here');
      await post(consultant, CHANNELS.studio.id, 'quarterly café numbers attached');
      await post(consultant, CHANNELS.clinic.id, 'Clinic: quarterly review');

      const all = await consultant.search.searchMessages({ text: 'QUART' });
      expect(texts(all)).toEqual([
        'Clinic: quarterly review',
        'quarterly café numbers attached',
        'The Quarterly plan is ready',
      ]);
      expect(all.next).toBeNull();
      // Every word is needed, each the start of a word; accents are not.
      expect(
        texts(
          await consultant.search.searchMessages({ text: 'cafe quarterly', channelId: CHANNELS.studio.id }),
        ),
      ).toEqual(['quarterly café numbers attached']);
      expect(
        texts(await consultant.search.searchMessages({ text: 'quarterly', channelId: CHANNELS.clinic.id })),
      ).toEqual(['Clinic: quarterly review']);
      expect(texts(await consultant.search.searchMessages({ text: 'uarterly' }))).toEqual([]);
    });

    it('never finds a message of a channel the person is not in, across channels or naming it', async () => {
      const h = harness();
      // The visitor joins Growth Clinic; the member is in Strategy Studio only.
      const visitor = await h.as('visitor');
      await visitor.invitations.acceptInvitation(INVITATIONS.pending.id);
      await h.settle();
      const member = await h.as('member');
      await post(visitor, CHANNELS.clinic.id, 'zephyr clinic secret');
      await post(member, CHANNELS.studio.id, 'zephyr studio note');

      expect(texts(await member.search.searchMessages({ text: 'zephyr' }))).toEqual(['zephyr studio note']);
      expect(texts(await visitor.search.searchMessages({ text: 'zephyr' }))).toEqual([
        'zephyr clinic secret',
      ]);
      expect(texts(await member.search.searchMessages({ text: 'secret clinic' }))).toEqual([]);
      const refused = await failure(
        member.search.searchMessages({ text: 'zephyr', channelId: CHANNELS.clinic.id }),
      );
      expect(refused.status).toBe('PERMISSION_DENIED');
      // The consultant owns both.
      expect(texts(await (await h.as('consultant')).search.searchMessages({ text: 'zephyr' }))).toHaveLength(
        2,
      );
    });

    it('never finds a deleted message, and finds an edited one by its new words only', async () => {
      const member = await harness().as('member');
      const [kept, gone] = await post(member, CHANNELS.studio.id, 'marmalade recipe', 'marmalade gossip');
      await member.messages.deleteMessage(CHANNELS.studio.id, gone!.id);
      await member.messages.editMessage(CHANNELS.studio.id, kept!.id, 'lemon curd recipe');
      await harness().settle();

      expect(texts(await member.search.searchMessages({ text: 'marmalade' }))).toEqual([]);
      expect(texts(await member.search.searchMessages({ text: 'gossip' }))).toEqual([]);
      const found = await member.search.searchMessages({ text: 'curd' });
      expect(found.hits.map((hit) => [hit.id, hit.text])).toEqual([[kept!.id, 'lemon curd recipe']]);
    });

    it('pages through the hits, each once, until there is no next page', async () => {
      const member = await harness().as('member');
      const sent = await post(member, CHANNELS.studio.id, 'kiwi 1', 'kiwi 2', 'kiwi 3', 'kiwi 4', 'kiwi 5');
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page += 1) {
        const result = await member.search.searchMessages({
          text: 'kiwi',
          limit: 2,
          ...(cursor ? { cursor } : {}),
        });
        seen.push(...result.hits.map((hit) => hit.id));
        if (result.next === null) break;
        cursor = result.next;
      }
      expect(seen).toEqual(sent.map((message) => message.id).reverse());
    });

    it('answers bad input with a clear error or no hits, and nothing else of the channel', async () => {
      const member = await harness().as('member');
      const consultant = await harness().as('consultant');
      await post(member, CHANNELS.studio.id, 'plain words only');
      await post(consultant, CHANNELS.clinic.id, 'NEAR AND OR text hidden words');

      const long = await failure(member.search.searchMessages({ text: 'a'.repeat(10_000) }));
      expect(long.status).toBe('INVALID_ARGUMENT');
      expect(long.message).toBe(SEARCH_MESSAGES.tooLong);
      const many = await failure(member.search.searchMessages({ text: 'a b c d e f g h i j k' }));
      expect(many.message).toBe(SEARCH_MESSAGES.tooManyWords);
      const badCursor = await failure(member.search.searchMessages({ text: 'plain', cursor: 'nope' }));
      expect(badCursor.status).toBe('INVALID_ARGUMENT');

      for (const text of ['', '   ', '*', '"*"', '"', '""', '-', '^', '(', 'NEAR(', 'text:*']) {
        expect(await member.search.searchMessages({ text })).toEqual({ hits: [], next: null });
      }
      // FTS5 and SQL syntax is plain words: found only as words, and only in the person's channels.
      for (const text of [
        'NEAR(words hidden)',
        'hidden OR plain',
        'text: hidden',
        'words NOT plain',
        "'; DROP TABLE messages; --",
        'words" OR "hidden',
      ]) {
        const page = await member.search.searchMessages({ text });
        expect(page.hits.every((hit) => hit.channelId === CHANNELS.studio.id)).toBe(true);
      }
      expect(texts(await member.search.searchMessages({ text: 'plain words' }))).toEqual([
        'plain words only',
      ]);
      expect(texts(await consultant.search.searchMessages({ text: 'near and or' }))).toEqual([
        'NEAR AND OR text hidden words',
      ]);
    });
  });
}
