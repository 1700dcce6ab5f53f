import {
  changeStamp,
  checkDelete,
  checkEdit,
  EDIT_WINDOW_MS,
  editWindowEnd,
  isWithinEditWindow,
  MESSAGE_CHANGE_MESSAGES,
  tombstoneOf,
} from '@core/messageEdits';
import type { ChatMessage } from '@core/model';

const channel = { ownerId: 'owner', members: ['m1', 'm2'] };
const SENT = 1_000_000;
const message = (senderId: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'MessageId00000000001',
  channelId: 'ChannelId00000000001',
  senderId,
  senderName: senderId,
  text: 'Hello',
  createdAt: SENT,
  ...extra,
});

describe('checkEdit', () => {
  it('lets the sender edit their message until 24 hours after it was sent, and not from then on', () => {
    expect(checkEdit(channel, message('m1'), 'm1', SENT)).toEqual({ ok: true });
    expect(checkEdit(channel, message('m1'), 'm1', SENT + EDIT_WINDOW_MS - 1)).toEqual({ ok: true });
    expect(checkEdit(channel, message('m1'), 'm1', SENT + EDIT_WINDOW_MS)).toEqual({
      ok: false,
      problem: 'tooLate',
    });
  });

  it("refuses someone else's message, the channel owner included", () => {
    expect(checkEdit(channel, message('m1'), 'm2', SENT)).toEqual({ ok: false, problem: 'notYours' });
    expect(checkEdit(channel, message('m1'), 'owner', SENT)).toEqual({ ok: false, problem: 'notYours' });
  });

  it('refuses a deleted message, and anyone no longer in the channel', () => {
    expect(checkEdit(channel, message('m1', { deleted: true, text: '' }), 'm1', SENT)).toEqual({
      ok: false,
      problem: 'deleted',
    });
    expect(checkEdit({ ownerId: 'owner', members: [] }, message('m1'), 'm1', SENT)).toEqual({
      ok: false,
      problem: 'notInChannel',
    });
  });
});

describe('checkDelete', () => {
  it('lets the sender delete their message at any time, and the channel owner anyone’s', () => {
    expect(checkDelete(channel, message('m1'), 'm1')).toEqual({ ok: true });
    expect(checkDelete(channel, message('m1'), 'owner')).toEqual({ ok: true });
  });

  it('refuses another member, a deleted message, and someone outside the channel (even its old sender)', () => {
    expect(checkDelete(channel, message('m1'), 'm2')).toEqual({ ok: false, problem: 'notYours' });
    expect(checkDelete(channel, message('m1', { deleted: true }), 'owner')).toEqual({
      ok: false,
      problem: 'deleted',
    });
    expect(checkDelete({ ownerId: 'owner', members: [] }, message('m1'), 'm1')).toEqual({
      ok: false,
      problem: 'notInChannel',
    });
    expect(checkDelete(channel, message('m1'), '')).toEqual({ ok: false, problem: 'notInChannel' });
  });
});

describe('the edit window', () => {
  it('closes 24 hours after the send, a clock behind the send still counting as within it', () => {
    expect(editWindowEnd(message('m1'))).toBe(SENT + 24 * 60 * 60 * 1000);
    expect(isWithinEditWindow(message('m1'), SENT - 5000)).toBe(true);
    expect(isWithinEditWindow(message('m1'), editWindowEnd(message('m1')))).toBe(false);
  });

  it('says each refusal in plain words', () => {
    for (const words of Object.values(MESSAGE_CHANGE_MESSAGES)) expect(words).toMatch(/^[A-Z][^{}<>]*\.$/);
  });
});

describe('changeStamp', () => {
  it('is now when nothing in the channel is newer', () => {
    expect(changeStamp(5000, 4000, message('m1', { createdAt: 3000 }))).toBe(5000);
  });

  it("never goes before the channel's newest version (a clock that went back)", () => {
    expect(changeStamp(5000, 7000, message('m1', { createdAt: 3000 }))).toBe(7000);
  });

  it('always comes after the message’s own previous version, also within one millisecond', () => {
    expect(changeStamp(5000, 5000, message('m1', { createdAt: 3000, updatedAt: 5000 }))).toBe(5001);
  });
});

describe('tombstoneOf', () => {
  it('keeps the message’s place and sender but none of its text', () => {
    expect(tombstoneOf(message('m1', { editedAt: 2000 }), 9000)).toEqual({
      ...message('m1', { editedAt: 2000 }),
      text: '',
      deleted: true,
      updatedAt: 9000,
    });
  });
});
