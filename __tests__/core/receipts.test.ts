// Read receipts: what marks say about a message (sent → delivered → read), who read it and when, who may see
// whose marks, and the typing words.
import { covers, messageState, readersOf, typingWords, visibleReceipts } from '@core/receipts';
import type { Receipt } from '@core/receipts';

const ME = 'me';
const msg = (createdAt: number, id = `m${createdAt}`) => ({ createdAt, id });
const receipt = (uid: string, marks: Partial<Receipt> = {}): Receipt => ({
  uid,
  name: uid,
  read: null,
  readAt: null,
  delivered: null,
  ...marks,
});

describe('covers', () => {
  it('reaches the marked message and those before it, not after', () => {
    expect(covers(msg(10, 'b'), msg(10, 'b'))).toBe(true);
    expect(covers(msg(10, 'b'), msg(10, 'a'))).toBe(true);
    expect(covers(msg(10, 'b'), msg(10, 'c'))).toBe(false);
    expect(covers(msg(10, 'b'), msg(11, 'a'))).toBe(false);
    expect(covers(null, msg(1))).toBe(false);
  });

  it('reads a whole-millisecond mark (id "") as covering all of that millisecond', () => {
    expect(covers({ createdAt: 10, id: '' }, msg(10, 'zzz'))).toBe(true);
    expect(covers({ createdAt: 10, id: '' }, msg(11, 'a'))).toBe(false);
  });
});

describe('messageState', () => {
  const mine = msg(10);
  it('is sent while nobody else has it', () => {
    expect(messageState([], mine, ME)).toBe('sent');
    expect(messageState([receipt('dana', { delivered: msg(9) })], mine, ME)).toBe('sent');
  });

  it('is delivered once a device of someone else got it', () => {
    expect(messageState([receipt('dana', { delivered: msg(10) })], mine, ME)).toBe('delivered');
  });

  it('is read once someone else read it, whatever the delivered marks say', () => {
    expect(messageState([receipt('dana', { read: msg(12) })], mine, ME)).toBe('read');
  });

  it("never counts the sender's own marks", () => {
    expect(messageState([receipt(ME, { read: msg(12), delivered: msg(12) })], mine, ME)).toBe('sent');
  });
});

describe('readersOf', () => {
  it('lists the others who read the message, earliest first', () => {
    const receipts = [
      receipt('sam', { read: msg(20), readAt: 300 }),
      receipt('dana', { read: msg(10), readAt: 200 }),
      receipt('lee', { read: msg(5), readAt: 100 }),
      receipt(ME, { read: msg(20), readAt: 50 }),
    ];
    expect(readersOf(receipts, msg(10), ME).map((r) => r.uid)).toEqual(['dana', 'sam']);
  });
});

describe('visibleReceipts', () => {
  const all = [receipt('dana'), receipt('sam'), receipt(ME)];
  it("shows a viewer who shares the others' marks of those who share theirs, never the viewer's own", () => {
    const sharing = (uid: string) => uid !== 'sam';
    expect(visibleReceipts(all, ME, true, sharing).map((r) => r.uid)).toEqual(['dana']);
  });

  it('shows nothing to a viewer who turned receipts off', () => {
    expect(visibleReceipts(all, ME, false, () => true)).toEqual([]);
  });
});

describe('typingWords', () => {
  it('names one or two typers, and counts more', () => {
    expect(typingWords([])).toBe('');
    expect(typingWords(['Dana'])).toBe('Dana is typing…');
    expect(typingWords(['Dana', 'Sam'])).toBe('Dana and Sam are typing…');
    expect(typingWords(['Dana', 'Sam', 'Lee'])).toBe('3 people are typing…');
  });
});
