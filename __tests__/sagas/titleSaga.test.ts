// The tab title: while the page is hidden or its window has lost the focus, "(n) QuPM" with the
// unread messages of the channels not muted; "QuPM" again once the person looks or nothing is unread.
import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { channel } from 'redux-saga';
import type { AttentionEvent } from '@/platform/attention';
import { isAttentive, setDocumentTitle } from '@/platform/attention';
import { now } from '@/platform/browser';
import { APP_TITLE, titleFor, watchTitle } from '@/sagas/titleSaga';
import { overviewLoaded } from '@/store/channelsSlice';
import { messagesArrived } from '@/store/messages';
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
  function run(attentiveAtStart: boolean) {
    const attention = channel<AttentionEvent>();
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
    const saga = expectSaga(watchTitle, attention)
      .withReducer(rootReducer, state)
      .provide([
        [matchers.call.fn(isAttentive), attentiveAtStart],
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
    return { attention, titles, saga };
  }

  it('counts unread messages while the window is not looked at, and leaves out muted channels', async () => {
    const { titles, saga } = run(false);
    await saga
      .dispatch(messagesArrived({ messages: [message('A', 'm1', 10)], ownUid: 'me' }))
      .dispatch(muteSaved({ channelId: 'B', mutedUntil: MUTED_FOREVER }))
      .dispatch(unmuteSaved({ channelId: 'B' }))
      .silentRun(50);
    expect(titles).toEqual(['(3) QuPM', '(4) QuPM', '(3) QuPM', '(4) QuPM']);
  });

  it('is "QuPM" while the person looks, and shows the count once they look away', async () => {
    const { attention, titles, saga } = run(true);
    const running = saga.silentRun(50);
    attention.put({ attentive: false });
    attention.put({ attentive: true });
    await running;
    expect(titles).toEqual(['QuPM', '(3) QuPM', 'QuPM']);
  });

  it('sets the title only when it changes', async () => {
    const { titles, saga } = run(true);
    await saga.dispatch(messagesArrived({ messages: [message('A', 'm1', 10)], ownUid: 'me' })).silentRun(50);
    expect(titles).toEqual(['QuPM']);
  });
});
