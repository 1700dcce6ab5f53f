// A message's text, written once in core/messageText.ts: the embedded server's schema, the Firebase adapter and
// the composer all decide with checkMessageText, so they accept and refuse exactly the same texts.
import fc from 'fast-check';
import { LIMITS } from '@core/limits';
import { MESSAGE_RAW_MAX, checkMessageText } from '@core/messageText';
import { messageTextSchema } from '@core/schemas';
import { checkMessage } from '@/features/conversation/Composer';

describe('checkMessageText', () => {
  it.each([
    ['one character', 'x', { ok: true, text: 'x' }],
    ['exactly 4,000 characters', 'y'.repeat(4000), { ok: true, text: 'y'.repeat(4000) }],
    ['4,000 characters inside spaces', `  ${'y'.repeat(4000)}\n`, { ok: true, text: 'y'.repeat(4000) }],
    ['4,001 characters', 'z'.repeat(4001), { ok: false, problem: 'tooLong', length: 4001 }],
    ['empty', '', { ok: false, problem: 'empty', length: 0 }],
    ['only white space', ' \n\t ', { ok: false, problem: 'empty', length: 0 }],
  ])('%s', (_label, raw, expected) => {
    expect(checkMessageText(raw)).toEqual(expected);
  });

  it('keeps the limit of issue #6 (4,000) and bounds raw text at twice it', () => {
    expect(LIMITS.messageMax).toBe(4000);
    expect(MESSAGE_RAW_MAX).toBe(8000);
  });
});

describe('every copy decides the same', () => {
  // Texts around the boundaries: blank, short, and near 4,000 once trimmed.
  const texts = fc.oneof(
    fc.constantFrom('', ' ', '\n\t'),
    fc.string({ maxLength: 20 }),
    fc
      .tuple(fc.nat(3), fc.integer({ min: 3995, max: 4005 }), fc.nat(3))
      .map(([before, n, after]) => `${' '.repeat(before)}${'m'.repeat(n)}${'\n'.repeat(after)}`),
  );

  it('the server’s schema and the composer accept exactly what checkMessageText accepts', () => {
    fc.assert(
      fc.property(texts, (raw) => {
        const checked = checkMessageText(raw);
        const parsed = messageTextSchema.safeParse(raw);
        expect(parsed.success).toBe(checked.ok);
        if (checked.ok && parsed.success) expect(parsed.data).toBe(checked.text);
        expect(checkMessage(raw) === null).toBe(checked.ok);
      }),
    );
  });

  it('the schema refuses raw text over twice the limit before trimming', () => {
    expect(messageTextSchema.safeParse(`${' '.repeat(MESSAGE_RAW_MAX)}x`).success).toBe(false);
    expect(messageTextSchema.safeParse(`${' '.repeat(MESSAGE_RAW_MAX - 1)}x`).success).toBe(true);
  });
});
