import reducer, {
  ALL_CHANNELS,
  initialState,
  searchAnswered,
  searchCleared,
  searchFailed,
  searchMoreRequested,
  searchRequested,
  selectSearch,
} from '@/features/conversation/searchSlice';
import { signedOut } from '@/store/userSlice';
import type { ChatMessage } from '@core/model';

const A = 'chanA000000000000001';
const msg = (n: number): ChatMessage => ({
  id: `m${String(n).padStart(19, '0')}`,
  channelId: A,
  senderId: 'uidDana0000000000001',
  senderName: 'Dana',
  text: `message ${n}`,
  createdAt: n,
});
const searching = reducer(initialState, searchRequested({ scope: ALL_CHANNELS, text: 'plan' }));
const answered = reducer(
  searching,
  searchAnswered({ scope: ALL_CHANNELS, text: 'plan', hits: [msg(3), msg(2)], next: 'c', more: false }),
);

describe('searchSlice', () => {
  it('keeps each place a person searches from apart', () => {
    const both = reducer(answered, searchRequested({ scope: A, text: 'other' }));
    expect(selectSearch({ messageSearch: both }, ALL_CHANNELS)?.hits).toEqual([msg(3), msg(2)]);
    expect(selectSearch({ messageSearch: both }, A)).toMatchObject({
      text: 'other',
      status: 'searching',
      hits: [],
    });
  });

  it('adds a next page after the hits shown, each once', () => {
    const more = reducer(reducer(answered, searchMoreRequested({ scope: ALL_CHANNELS })), {
      ...searchAnswered({
        scope: ALL_CHANNELS,
        text: 'plan',
        hits: [msg(2), msg(1)],
        next: null,
        more: true,
      }),
    });
    expect(more.byScope[ALL_CHANNELS]).toMatchObject({
      hits: [msg(3), msg(2), msg(1)],
      next: null,
      loadingMore: false,
    });
  });

  it('keeps the hits shown when a next page fails, with the words', () => {
    const failed = reducer(
      answered,
      searchFailed({ scope: ALL_CHANNELS, text: 'plan', message: 'Offline.' }),
    );
    expect(failed.byScope[ALL_CHANNELS]).toMatchObject({
      status: 'done',
      hits: [msg(3), msg(2)],
      error: 'Offline.',
    });
    const first = reducer(
      searching,
      searchFailed({ scope: ALL_CHANNELS, text: 'plan', message: 'Offline.' }),
    );
    expect(first.byScope[ALL_CHANNELS]).toMatchObject({ status: 'failed', error: 'Offline.' });
  });

  it('drops the results on clearing and on sign-out', () => {
    expect(reducer(answered, searchCleared({ scope: ALL_CHANNELS })).byScope).toEqual({});
    expect(reducer(answered, signedOut())).toEqual(initialState);
  });
});
