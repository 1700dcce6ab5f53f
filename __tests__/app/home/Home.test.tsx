/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The signed-in home and the first screen (src/platform/firstScreen.ts): the signal that lets Firestore's SDK and
// the conversation's chunk load comes once the channel list is drawn, not as the home mounts with the kept state
// still on its way; and the list's search field, which comes with the conversation's chunk, is drawn after it.
import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createAppStore } from '@/app/store';
import { Home } from '@/app/home/Home';
import { whenFirstScreenDrawn } from '@/platform/firstScreen';
import { overviewLoaded, overviewRequested } from '@/store/channelsSlice';
import { signedIn } from '@/store/userSlice';
import { FIRST_SCREEN_WAIT_MS } from '@/timings';
import { STUDIO_ID, studioChannel } from '../../support/studioChannel';

const ME = 'uidMember00000000001';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Whether `promise` has settled once the timers due in `ms` have run. */
async function settledAfter(ms: number, promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await act(() => jest.advanceTimersByTimeAsync(ms));
  return settled;
}

describe('the signed-in home, first drawn', () => {
  it('gives the first screen signal once its list is drawn, and draws the search field after it', async () => {
    const store = createAppStore();
    store.dispatch(signedIn({ authUser: { uid: ME, email: 'me@example.com', displayName: 'Me' } }));
    store.dispatch(overviewRequested());
    render(
      <Provider store={store}>
        <MemoryRouter>
          <Home />
        </MemoryRouter>
      </Provider>,
    );
    const drawn = whenFirstScreenDrawn();
    // The home is there, its list still loading: nothing that waits for the first screen may start.
    expect(await settledAfter(FIRST_SCREEN_WAIT_MS / 2, drawn)).toBe(false);
    expect(screen.queryByRole('search')).toBeNull();

    act(() => {
      store.dispatch(
        overviewLoaded({
          items: [{ channel: studioChannel({ members: [ME] }), lastMessage: null, unread: 0 }],
        }),
      );
    });
    expect(screen.getByRole('link', { name: /Strategy Studio/ }).getAttribute('href')).toContain(STUDIO_ID);
    // Within a frame and a task of the list drawn, well before the bound would have let it go.
    expect(await settledAfter(100, drawn)).toBe(true);
    await act(() => jest.advanceTimersByTimeAsync(100));
    jest.useRealTimers();
    expect(await screen.findByRole('search')).toBeTruthy();
  });
});
