/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// Settings → Notifications → Email: the switch asks to save the 'email' delivery channel alone,
// shows what is stored, says when it saved, and waits for "Notify me".
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { NotificationSettings } from '@core/model';
import { createAppStore } from '@/app/store';
import { docChanged } from '@/store/userSlice';
import { emailVerificationLoaded } from '@/store/emailLinksSlice';
import { MissedMailSwitch } from '@/features/settings/MissedMailSwitch';
import { NotificationsSection } from '@/features/settings/NotificationsSection';
import { notificationsSaved, notificationsSaveFailed } from '@/features/settings/settingsSlice';
import { initialState, userDoc } from '../../sagas/push/support';

function renderSwitch(settings?: NotificationSettings, Section = MissedMailSwitch) {
  const store = createAppStore({ preloadedState: initialState(settings ? { settings } : {}) });
  const seen: { type: string; payload?: unknown }[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: { type: string; payload?: unknown }) => {
    seen.push(action);
    return dispatch(action);
  }) as typeof store.dispatch;
  render(
    <Provider store={store}>
      <MemoryRouter>
        <Section />
      </MemoryRouter>
    </Provider>,
  );
  return {
    dispatch,
    seen,
    toggle: () => screen.getByRole('switch', { name: 'Email me about messages I miss' }),
  };
}

describe('MissedMailSwitch', () => {
  it('is off by default and, turned on, saves the settings with email added and nothing else changed', () => {
    const { dispatch, seen, toggle } = renderSwitch();
    expect((toggle() as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle());
    expect(seen.map((a) => a.type)).toEqual([
      'emailLinks/emailVerificationRequested',
      'settings/notificationsSaveRequested',
    ]);
    expect(seen[1]?.payload).toEqual({
      settings: { enabled: true, delivery: { channels: ['push', 'in_app', 'email'] } },
    });
    act(() => {
      dispatch(
        docChanged({ doc: userDoc({ enabled: true, delivery: { channels: ['push', 'in_app', 'email'] } }) }),
      );
      dispatch(notificationsSaved());
    });
    expect((toggle() as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Emails are on.');
    act(() => {
      dispatch(emailVerificationLoaded({ email: 'ada@example.com', verified: true }));
    });
    expect(screen.getByText(/Emails go to/).textContent).toBe('Emails go to ada@example.com.');
  });

  it('says nothing is sent until the address is confirmed, with the way to confirm it', () => {
    const { dispatch } = renderSwitch({ enabled: true, delivery: { channels: ['email'] } });
    act(() => {
      dispatch(emailVerificationLoaded({ email: 'ada@example.com', verified: false }));
    });
    expect(screen.getByText(/Nothing is sent until you confirm/).textContent).toBe(
      'Nothing is sent until you confirm ada@example.com in Settings → Profile.',
    );
    expect(screen.getByRole('link', { name: 'Settings → Profile' }).getAttribute('href')).toBe(
      '/settings/profile',
    );
  });

  it('turns email off alone, and shows a failure to save', () => {
    const { dispatch, seen, toggle } = renderSwitch({
      enabled: true,
      delivery: { channels: ['email', 'push'] },
    });
    expect((toggle() as HTMLInputElement).checked).toBe(true);
    fireEvent.click(toggle());
    expect(seen.find((a) => a.type === 'settings/notificationsSaveRequested')?.payload).toEqual({
      settings: { enabled: true, delivery: { channels: ['push'] } },
    });
    act(() => {
      dispatch(notificationsSaveFailed({ message: 'You are offline. Try again when you are back online.' }));
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'You are offline. Try again when you are back online.',
    );
    expect((toggle() as HTMLInputElement).checked).toBe(true);
  });

  it('waits for "Notify me": with notifications off it cannot be switched and says why', () => {
    const { toggle } = renderSwitch({ enabled: false, delivery: { channels: ['push'] } });
    expect((toggle() as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Turn on "Notify me" above first.')).toBeTruthy();
  });
});

describe('the notification form beside it', () => {
  it('keeps the email switch as it is stored when it saves its own choices', () => {
    const { dispatch, seen } = renderSwitch(
      { enabled: true, delivery: { channels: ['push', 'in_app'] } },
      NotificationsSection,
    );
    // The switch turned email on after the form was shown.
    act(() => {
      dispatch(
        docChanged({ doc: userDoc({ enabled: true, delivery: { channels: ['push', 'in_app', 'email'] } }) }),
      );
    });
    fireEvent.click(screen.getByRole('checkbox', { name: /In-app notices/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const saved = seen.find((a) => a.type === 'settings/notificationsSaveRequested');
    expect(saved?.payload).toEqual({
      settings: { enabled: true, delivery: { channels: ['push', 'email'] } },
    });
  });
});
