/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Settings → Devices' sessions and Settings → Profile's change of password, on the real
// store: what a person sees and what their clicks ask for.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@/app/store';
import { SessionsSection, uniqueSessionNames } from '@/features/settings/SessionsSection';
import { ChangePasswordSection, checkPasswordChange } from '@/features/settings/ChangePasswordSection';
import { passwordChangeFailed, passwordChanged, sessionsLoaded } from '@/features/settings/sessionsSlice';
import type { SignedInSession } from '@core/model';
import { initialState } from '../../sagas/push/support';

const session = (
  id: string,
  browser: string,
  platform: string,
  current = false,
  createdAt = 1,
): SignedInSession => ({
  id,
  browser,
  platform,
  createdAt,
  lastUsedAt: Date.UTC(2026, 0, 2),
  current,
});

function renderWithStore(element: React.JSX.Element) {
  const store = createAppStore({ preloadedState: initialState() });
  const seen: Array<{ type: string; payload?: unknown }> = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: { type: string; payload?: unknown }) => {
    seen.push(action);
    return dispatch(action);
  }) as typeof store.dispatch;
  render(<Provider store={store}>{element}</Provider>);
  return { dispatch, seen };
}

describe('SessionsSection', () => {
  it('marks this device, names each other session in its button, and offers "Sign out everywhere else"', () => {
    const { dispatch, seen } = renderWithStore(<SessionsSection />);
    expect(seen.map((a) => a.type)).toContain('sessions/sessionsRequested');
    act(() => {
      dispatch(
        sessionsLoaded({
          items: [
            session('a', 'Firefox', 'Windows', true),
            session('b', 'Chrome', 'Android'),
            session('c', 'Safari', 'iOS'),
          ],
          listsEverySession: true,
        }),
      );
    });
    expect(screen.getByText('This device')).toBeTruthy();
    const buttons = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(buttons).toEqual([
      'Sign out Chrome on Android',
      'Sign out Safari on iOS',
      'Sign out everywhere else',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out Chrome on Android' }));
    expect(seen.at(-1)).toEqual({ type: 'sessions/sessionSignOutRequested', payload: { id: 'b' } });
    expect(screen.getByRole('button', { name: 'Sign out Chrome on Android' }).textContent).toBe(
      'Signing out…',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(seen.at(-1)?.type).toBe('sessions/otherSessionsSignOutRequested');
  });

  it('says so when this is the only session, and offers no sign-out for it', () => {
    const { dispatch } = renderWithStore(<SessionsSection />);
    act(() => {
      dispatch(sessionsLoaded({ items: [session('a', 'Chrome', 'Linux', true)], listsEverySession: true }));
    });
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText('You are signed in on this device only.')).toBeTruthy();
  });

  it('on a backend that lists this session only, offers "Sign out everywhere" and says it includes this device', () => {
    const { dispatch } = renderWithStore(<SessionsSection />);
    act(() => {
      dispatch(
        sessionsLoaded({
          items: [session('this-device', 'Chrome', 'Linux', true)],
          listsEverySession: false,
        }),
      );
    });
    expect(screen.getByRole('button', { name: 'Sign out everywhere' })).toBeTruthy();
    expect(screen.getByText(/this one too/)).toBeTruthy();
  });

  it('gives sessions of the same browser and system names that differ', () => {
    const names = uniqueSessionNames([
      session('a', 'Chrome', 'Android', false, Date.UTC(2026, 0, 1, 9)),
      session('b', 'Chrome', 'Android', false, Date.UTC(2026, 0, 3, 9)),
      session('c', 'Chrome', 'Android', false, Date.UTC(2026, 0, 3, 9)),
    ]);
    expect(new Set(names.values()).size).toBe(3);
    for (const name of names.values()) expect(name.startsWith('Chrome on Android')).toBe(true);
  });
});

describe('ChangePasswordSection', () => {
  const fill = (current: string, next: string) => {
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: current } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: next } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('names the obvious mistakes before sending anything', () => {
    const { seen } = renderWithStore(<ChangePasswordSection />);
    fill('', 'new-password-1');
    expect(screen.getByRole('alert').textContent).toBe('Enter your current password.');
    fill('old-password-1', 'short');
    expect(screen.getByRole('alert').textContent).toMatch(/at least 8 characters/);
    expect(seen.filter((a) => a.type === 'sessions/passwordChangeRequested')).toHaveLength(0);
    expect(checkPasswordChange('same-password', 'same-password')).toMatch(/different/);
    expect(checkPasswordChange('x', 'y'.repeat(129))).toMatch(/too long/);
  });

  it('sends the change, shows a failure in words, and empties the fields once it changed', () => {
    const { dispatch, seen } = renderWithStore(<ChangePasswordSection />);
    fill('old-password-1', 'new-password-1');
    expect(seen.at(-1)).toEqual({
      type: 'sessions/passwordChangeRequested',
      payload: { currentPassword: 'old-password-1', newPassword: 'new-password-1' },
    });
    act(() => {
      dispatch(
        passwordChangeFailed({ message: 'Your current password is not right. Check it and try again.' }),
      );
    });
    expect(screen.getByRole('alert').textContent).toMatch(/not right/);
    act(() => {
      dispatch(passwordChanged());
    });
    expect(screen.getByText('Password changed. Your other devices were signed out.')).toBeTruthy();
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
  });
});
