// The answers' schemas: what the local adapter keeps of a chat message from an answer or a live event (every
// field checked, and a message's attachment carried through when it is one, so that a file sent in one window
// shows in the others), and the answers' shapes the server's serializer writes.
import { safeParse } from 'zod/mini';
import { ANSWERS, CALLABLE_RESULTS, readChatMessage } from '../../core/answers';
import { MUTED_FOREVER } from '../../core/mutes';

const message = {
  id: 'Message0000000000001',
  channelId: 'ChannelA000000000001',
  senderId: 'uidMember00000000001',
  senderName: 'Morgan',
  text: '',
  createdAt: 1_700_000_000_000,
};
const attachment = {
  id: 'Attachment0000000001',
  kind: 'image',
  name: 'sketch.png',
  contentType: 'image/png',
  size: 120,
  width: 4,
  height: 3,
};

describe('readChatMessage', () => {
  it('keeps a message’s files, in order', () => {
    const second = { ...attachment, id: 'Attachment0000000002', name: 'b.png' };
    const attachments = [attachment, second];
    expect(readChatMessage({ ...message, attachments })).toEqual({ ...message, attachments });
  });

  it('drops a list with a file that is not one, eleven files, or one file twice, keeping the message', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      ...attachment,
      id: `Attachment00000000${10 + i}`,
    }));
    for (const attachments of [[{ ...attachment, name: '../../x' }], eleven, [attachment, attachment], []]) {
      const read = readChatMessage({ ...message, attachments });
      expect(read).toEqual(message);
      expect(read).not.toHaveProperty('attachments');
    }
  });

  it('keeps the version fields of an edited or deleted message', () => {
    const changed = { ...message, editedAt: 1_700_000_000_500, updatedAt: 1_700_000_000_600, deleted: true };
    expect(readChatMessage(changed)).toEqual(changed);
  });

  it('ignores a deleted flag that is not true, and keeps the message without the field', () => {
    const read = readChatMessage({ ...message, deleted: false });
    expect(read).toEqual(message);
    expect(read).not.toHaveProperty('deleted');
  });

  it.each([
    ['a time that is not one', { createdAt: 'soon' }],
    ['a negative time', { createdAt: -1 }],
    ['an id not of QuPM’s shape', { id: 'short' }],
    ['a channel id not of QuPM’s shape', { channelId: '../x' }],
    ['no sender', { senderId: '' }],
    ['an edit time that is not one', { editedAt: 1.5 }],
  ])('drops a message with %s', (_label, change) => {
    expect(readChatMessage({ ...message, ...change })).toBeNull();
  });

  it('drops what is not an object', () => {
    expect(readChatMessage(null)).toBeNull();
    expect(readChatMessage([message])).toBeNull();
  });
});

describe('ANSWERS', () => {
  it('reads a page of messages and refuses one with a message of the wrong shape', () => {
    expect(safeParse(ANSWERS.messages, { messages: [message] }).success).toBe(true);
    expect(safeParse(ANSWERS.messages, { messages: [{ ...message, createdAt: 'soon' }] }).success).toBe(
      false,
    );
  });

  it('reads an overview entry whose channel has no message yet', () => {
    const channel = {
      id: 'ChannelA000000000001',
      channelId: 'growth',
      ownerId: 'uidConsultant0000001',
      title: 'Growth',
      description: '',
      members: [],
      createdAt: 1,
    };
    expect(
      safeParse(ANSWERS.overview, { channels: [{ channel, lastMessage: null, unread: 0 }] }).success,
    ).toBe(true);
  });

  it('reads mutes only as channel ids mapped to the end of a mute', () => {
    expect(safeParse(ANSWERS.mutes, { mutes: { ChannelA000000000001: MUTED_FOREVER } }).success).toBe(true);
    expect(safeParse(ANSWERS.mutes, { mutes: { ChannelA000000000001: 0 } }).success).toBe(false);
  });

  it('reads a callable’s result by its own schema', () => {
    const permissions = { permissions: { canMessage: true, isOwner: false } };
    expect(safeParse(CALLABLE_RESULTS.check_channel_permissions, permissions).success).toBe(true);
    expect(safeParse(CALLABLE_RESULTS.check_channel_permissions, { canMessage: true }).success).toBe(false);
  });
});
