import type { Attachment } from '@core/attachments';
import type { ChatMessage } from '@core/model';
import {
  DELETED_QUOTE,
  quoteOf,
  quoteShown,
  REPLY_SNIPPET_MAX,
  snippetOf,
  toReplyQuote,
} from '@core/replies';

const message = (extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'MessageId00000000001',
  channelId: 'ChannelId00000000001',
  senderId: 'dana',
  senderName: 'Dana',
  text: 'Hello',
  createdAt: 1,
  ...extra,
});

describe('replies', () => {
  it('quotes a message of the same channel by id, sender and snippet', () => {
    expect(quoteOf('ChannelId00000000001', message())).toStrictEqual({
      ok: true,
      quote: { id: 'MessageId00000000001', senderId: 'dana', senderName: 'Dana', snippet: 'Hello' },
    });
  });

  it('refuses another channel’s message, none, and a deleted one', () => {
    expect(quoteOf('OtherChannel00000001', message())).toEqual({ ok: false, problem: 'notInChannel' });
    expect(quoteOf('ChannelId00000000001', null)).toEqual({ ok: false, problem: 'notInChannel' });
    expect(quoteOf('ChannelId00000000001', message({ deleted: true }))).toEqual({
      ok: false,
      problem: 'deleted',
    });
  });

  it('snips to one line of at most 120 characters, never half an emoji', () => {
    expect(snippetOf(message({ text: 'a\n\n  b' }))).toBe('a b');
    const long = snippetOf(message({ text: '😀'.repeat(200) }));
    expect(long.length).toBeLessThanOrEqual(REPLY_SNIPPET_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(Array.from(long.slice(0, -1)).every((c) => c === '😀')).toBe(true);
    expect(snippetOf(message({ text: '', attachments: undefined }))).toBe('');
  });

  it('names the first file of a message with files and no text', () => {
    const file = (id: string, kind: 'image' | 'document'): Attachment => ({
      id,
      name: `${id}.bin`,
      kind,
      contentType: kind === 'image' ? 'image/png' : 'application/pdf',
      size: 1,
    });
    const files = [file('FileId00000000000001', 'document'), file('FileId00000000000002', 'image')];
    expect(snippetOf(message({ text: '', attachments: files }))).toBe('Sent a document');
    expect(snippetOf(message({ text: '', attachments: files.slice().reverse() }))).toBe('Sent a photo');
    expect(snippetOf(message({ text: 'Look', attachments: files }))).toBe('Look');
  });

  it('shows the original as held (its edit, or "Deleted message"), else the snippet', () => {
    const quote = { id: 'MessageId00000000001', senderId: 'dana', senderName: 'Dana', snippet: 'Hello' };
    expect(quoteShown(quote, undefined).text).toBe('Hello');
    expect(quoteShown(quote, message({ text: 'Hello, edited' })).text).toBe('Hello, edited');
    expect(quoteShown(quote, message({ deleted: true, text: '' }))).toMatchObject({
      text: DELETED_QUOTE,
      deleted: true,
    });
    expect(quoteShown({ ...quote, snippet: '' }, undefined)).toMatchObject({
      text: DELETED_QUOTE,
      deleted: true,
    });
  });

  it('reads a stored quote defensively', () => {
    expect(toReplyQuote({ id: 'a', senderId: 'b', senderName: 'c', snippet: 'd' })).not.toBeNull();
    expect(toReplyQuote({ id: 'a', senderId: 'b', senderName: 'c', snippet: 'x'.repeat(121) })).toBeNull();
    expect(toReplyQuote({ id: 1 })).toBeNull();
    expect(toReplyQuote(null)).toBeNull();
  });
});
