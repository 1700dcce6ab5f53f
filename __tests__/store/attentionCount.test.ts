// The tab title's count: unread messages of the channels not muted at a moment, with the open
// channel's messages from others after the newest one seen.
import type { Channel, ChannelOverview, ChatMessage } from '@core/model';
import { MUTED_FOREVER } from '@core/mutes';
import { selectAttentionCount } from '@/store/attentionCount';
import { channelOpened, overviewLoaded } from '@/store/channelsSlice';
import { messagesLoaded } from '@/store/conversationSlice';
import { muteSaved } from '@/store/mutesSlice';
import { messagesSeen } from '@/store/readMarksSlice';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';

const NOW = Date.UTC(2026, 10, 23, 12);
const HOUR = 3_600_000;

describe('selectAttentionCount', () => {
  const channel = (id: string): Channel => ({
    id,
    channelId: id.toLowerCase(),
    ownerId: 'owner',
    title: id,
    description: '',
    members: ['me'],
    createdAt: 0,
  });
  const message = (channelId: string, id: string, createdAt: number, senderId = 'owner'): ChatMessage => ({
    id,
    channelId,
    senderId,
    senderName: senderId,
    text: id,
    createdAt,
  });
  const overview = (id: string, unread: number): ChannelOverview => ({
    channel: channel(id),
    lastMessage: null,
    unread,
  });

  function state(...actions: Array<{ type: string }>): RootState {
    return actions.reduce(
      (s, action) => rootReducer(s, action),
      rootReducer(
        undefined,
        overviewLoaded({ items: [overview('A', 2), overview('B', 3), overview('C', 0)] }),
      ),
    );
  }

  it('sums the unread counts of the channels not muted', () => {
    expect(selectAttentionCount(state(), 'me', NOW)).toBe(5);
    const muted = state(muteSaved({ channelId: 'B', mutedUntil: NOW + HOUR }));
    expect(selectAttentionCount(muted, 'me', NOW)).toBe(2);
    // The mute ends with the clock.
    expect(selectAttentionCount(muted, 'me', NOW + HOUR)).toBe(5);
  });

  it("counts the open channel's messages from others after the newest one seen", () => {
    const opened = state(
      channelOpened({ id: 'C' }),
      messagesLoaded({ channelId: 'C', messages: [message('C', 'm1', 1)] }),
      messagesSeen({ channelId: 'C', createdAt: 1, id: 'm1' }),
      messagesLoaded({
        channelId: 'C',
        messages: [
          message('C', 'm1', 1),
          message('C', 'm2', 2),
          message('C', 'm3', 3, 'me'),
          message('C', 'm4', 4),
        ],
      }),
    );
    expect(selectAttentionCount(opened, 'me', NOW)).toBe(5 + 2);
    const mutedOpen = rootReducer(opened, muteSaved({ channelId: 'C', mutedUntil: MUTED_FOREVER }));
    expect(selectAttentionCount(mutedOpen, 'me', NOW)).toBe(5);
  });

  it('is 0 with nothing unread', () => {
    expect(selectAttentionCount(rootReducer(undefined, { type: 'test/init' }), 'me', NOW)).toBe(0);
  });
});
