// The tab title: "(n) QuPM" with the unread messages of the channels not muted, whether or not the person
// looks (the badge's sum); "QuPM" when nothing is unread.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { setDocumentTitle } from '@/platform/attention';
import { now } from '@/platform/browser';
import { APP_TITLE, titleFor, watchTitle } from '@/sagas/titleSaga';
import { overviewLoaded } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
import { channelOpened } from '@/store/channelsSlice';
import { messagesLoaded } from '@/store/conversationSlice';
import { messagesSeen } from '@/store/readMarksSlice';
import { muteSaved, unmuteSaved } from '@/store/mutesSlice';
import { rootReducer } from '@/app/rootReducer';
import type { Channel, ChatMessage } from '@core/model';
import { MUTED_FOREVER } from '@core/mutes';

const NOW = Date.UTC(2026, 10, 23, 12);
const channelOf = (id: string): Channel => ({
  id,
  channelId: id.toLowerCase(),
  ownerId: 'dana',
  title: id,
  description: '',
  members: ['me'],
  createdAt: 0,
});
const message = (channelId: string, id: string, createdAt: number): ChatMessage => ({
  id,
  channelId,
  senderId: 'dana',
  senderName: 'Dana',
  text: id,
  createdAt,
});

describe('titleFor', () => {
  it('shows the count before the name, and the name alone with nothing unread', () => {
    expect(titleFor(3)).toBe('(3) QuPM');
    expect(titleFor(120)).toBe('(99+) QuPM');
    expect(titleFor(0)).toBe(APP_TITLE);
  });
});

describe('watchTitle', () => {
  function run() {
    const titles: string[] = [];
    const state = rootReducer(
      undefined,
      overviewLoaded({
        items: [
          { channel: channelOf('A'), lastMessage: null, unread: 2 },
          { channel: channelOf('B'), lastMessage: null, unread: 1 },
        ],
      }),
    );
    const saga = expectSaga(watchTitle)
      .withReducer(rootReducer, state)
      .provide([
        [matchers.call.fn(now), NOW],
        {
          call(effect, next) {
            if (effect.fn === setDocumentTitle) {
              titles.push(effect.args[0] as string);
              return undefined;
            }
            return next();
          },
        },
      ]);
    return { titles, saga };
  }

  it('counts unread messages from the start, and leaves out muted channels as the badge does', async () => {
    const { titles, saga } = run();
    await saga
      .dispatch(messagesArrived({ messages: [message('A', 'm1', 10)], ownUid: 'me' }))
      .dispatch(muteSaved({ channelId: 'B', mutedUntil: MUTED_FOREVER }))
      .dispatch(unmuteSaved({ channelId: 'B' }))
      .silentRun(50);
    expect(titles).toEqual(['(3) QuPM', '(4) QuPM', '(3) QuPM', '(4) QuPM']);
  });

  it("counts the open channel's messages after the one seen last, and drops them once they are seen", async () => {
    const { titles, saga } = run();
    await saga
      .dispatch(channelOpened({ id: 'B' }))
      .dispatch(messagesLoaded({ channelId: 'B', messages: [message('B', 'b1', 10)] }))
      .dispatch(messagesSeen({ channelId: 'B', id: 'b1', createdAt: 10 }))
      .dispatch(messagesArrived({ messages: [message('B', 'b2', 20)], ownUid: 'me' }))
      .dispatch(messagesSeen({ channelId: 'B', id: 'b2', createdAt: 20 }))
      .silentRun(50);
    expect(titles.at(-2)).toBe('(3) QuPM');
    expect(titles.at(-1)).toBe('(2) QuPM');
  });

  it('sets the title only when it changes', async () => {
    const { titles, saga } = run();
    await saga.dispatch(muteSaved({ channelId: 'X', mutedUntil: MUTED_FOREVER })).silentRun(50);
    expect(titles).toEqual(['(3) QuPM']);
  });
});
