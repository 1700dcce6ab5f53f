/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { Component as Logout } from '@/features/logout/route';
import { conversationsRestored, messageSendRequested } from '@/store/outboxSlice';
import { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import { recordActionTypes } from '../support/recordingStore';

const me = { uid: 'uidMember00000000001', email: 'me@example.com', displayName: 'Me' };

function renderLogout({ unsent, restored }: { unsent: number; restored: boolean }) {
  const { store, seen, dispatch } = recordActionTypes();
  dispatch(signedIn({ authUser: me }));
  dispatch(accountLoaded(buildUserState(me, null, { isAdmin: false })));
  for (let i = 0; i < unsent; i += 1)
    dispatch(messageSendRequested({ channelId: 'ChannelLogout0000001', text: `m${i}` }));
  if (restored) dispatch(conversationsRestored({ outbox: [], drafts: [], readMarks: [], dropped: 0 }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <Logout />
      </MemoryRouter>
    </Provider>,
  );
  return { store, seen };
}

describe('/logout', () => {
  it('signs out at once when nothing is waiting to be sent', () => {
    const { seen } = renderLogout({ unsent: 0, restored: true });
    expect(seen).toContain('auth/signOutRequested');
  });

  it('asks first when messages are still unsent, and signs out only when told to', () => {
    const { seen } = renderLogout({ unsent: 2, restored: true });
    expect(screen.getByText(/2 messages have not been sent yet/)).toBeTruthy();
    expect(seen).not.toContain('auth/signOutRequested');
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out anyway' }));
    });
    expect(seen).toContain('auth/signOutRequested');
  });

  it('waits for what the device kept before deciding, but not for long', async () => {
    jest.useFakeTimers();
    try {
      const { seen } = renderLogout({ unsent: 0, restored: false });
      expect(seen).not.toContain('auth/signOutRequested');
      await act(async () => {
        await jest.advanceTimersByTimeAsync(2_000);
      });
      expect(seen).toContain('auth/signOutRequested');
    } finally {
      jest.useRealTimers();
    }
  });
});
