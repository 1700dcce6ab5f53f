// What the local adapter keeps of a live message event: every field checked, and a message's attachment (issue
// #13) carried through when it is one, so that a file sent in one window shows in the others.
import { parseChatMessage } from '@/backend/local/parse';

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

describe('parseChatMessage', () => {
  it('keeps a message’s attachment', () => {
    expect(parseChatMessage({ ...message, attachment })).toEqual({ ...message, attachment });
  });

  it('drops an attachment that is not one, and keeps the message', () => {
    expect(parseChatMessage({ ...message, attachment: { ...attachment, name: '../../x' } })).toEqual(message);
  });

  it('drops a message of the wrong shape', () => {
    expect(parseChatMessage({ ...message, createdAt: 'soon' })).toBeNull();
  });
});
