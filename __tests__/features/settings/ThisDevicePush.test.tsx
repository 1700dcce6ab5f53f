/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@/store';
import { ThisDevicePush } from '@/features/settings/ThisDevicePush';
import type { PushState } from '@/store/pushSlice';
import { initialState } from '../../sagas/push/support';
import type { StateOptions } from '../../sagas/push/support';

function renderPanel(options: StateOptions, push: Partial<PushState> = {}) {
  const base = initialState(options);
  const store = createAppStore({ preloadedState: { ...base, push: { ...base.push, ...push } } });
  const dispatched: string[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: { type: string }) => {
    dispatched.push(action.type);
    return dispatch(action);
  }) as typeof store.dispatch;
  render(
    <Provider store={store}>
      <ThisDevicePush />
    </Provider>,
  );
  return dispatched;
}

describe('ThisDevicePush', () => {
  it('offers to allow notifications while the permission is not asked, and asks on the click', () => {
    const dispatched = renderPanel({ permission: 'default' }, { tokenStatus: 'awaitingPermission' });
    expect(screen.getByTestId('push-permission').textContent).toBe('Not asked yet');
    fireEvent.click(screen.getByRole('button', { name: 'Allow notifications' }));
    expect(dispatched).toEqual(['push/permissionRequested']);
  });

  it('shows the provider’s message word for word when notifications are blocked (spec §8)', () => {
    renderPanel(
      { permission: 'denied' },
      { tokenStatus: 'blocked', lastError: 'Registration failed - permission denied' },
    );
    expect(screen.getByRole('alert').textContent).toContain('Registration failed - permission denied');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the last validation in the spec’s words and re-validates on request', () => {
    const dispatched = renderPanel(
      {},
      {
        tokenStatus: 'active',
        lastValidation: {
          success: true,
          message: 'Token was invalid and has been refreshed',
          rateLimited: false,
          at: Date.now(),
        },
      },
    );
    expect(screen.getByTestId('push-last-check').textContent).toMatch(
      /^Token was invalid and has been refreshed/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Check this device again' }));
    expect(dispatched).toEqual(['push/validationRequested']);
  });

  it('says why push is off where the environment disables it, with no action', () => {
    renderPanel({ environmentEnabled: false });
    expect(screen.getByTestId('push-status').textContent).toBe(
      'Push is off on development hosts (localhost and IP addresses).',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
