/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@/app/store';
import { ThisDevicePush } from '@/features/settings/ThisDevicePush';
import type { PushState } from '@/store/pushSlice';
import { initialState } from '../../sagas/push/support';
import type { StateOptions } from '../../sagas/push/support';
import { recordActionTypes } from '../../support/recordingStore';

function renderPanel(options: StateOptions, push: Partial<PushState> = {}) {
  const base = initialState(options);
  const { store, seen: dispatched } = recordActionTypes(
    createAppStore({ preloadedState: { ...base, push: { ...base.push, ...push } } }),
  );
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

  it('leads a blocked permission with the app’s words and how to allow it, the provider’s message beside them (spec §8)', () => {
    renderPanel(
      { permission: 'denied' },
      { tokenStatus: 'blocked', lastError: 'Registration failed - permission denied' },
    );
    expect(screen.getByRole('alert').textContent).toBe('Notifications are blocked for QuPM in this browser.');
    expect(screen.getByTestId('push-provider-message').textContent).toBe(
      'Registration failed - permission denied',
    );
    // jsdom's user agent is neither Chromium nor Firefox nor Safari: the general steps.
    expect(screen.getByTestId('push-unblock-steps').textContent).toMatch(/site settings/);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows FCM’s own text for a blocked permission on Firebase, beside the same help', () => {
    renderPanel(
      { permission: 'denied' },
      {
        tokenStatus: 'blocked',
        lastError: 'The notification permission was not granted and blocked instead.',
      },
    );
    expect(screen.getByTestId('push-provider-message').textContent).toBe(
      'The notification permission was not granted and blocked instead.',
    );
    expect(screen.getByText('Using another browser?')).toBeTruthy();
  });

  it('says what the last validation means, never the spec’s raw words, and re-validates on request', () => {
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
    const lastCheck = screen.getByTestId('push-last-check').textContent ?? '';
    expect(lastCheck).toMatch(/^All good: QuPM renewed this device’s registration/);
    expect(lastCheck).not.toContain('Token was invalid');
    fireEvent.click(screen.getByRole('button', { name: 'Check this device again' }));
    expect(dispatched).toEqual(['push/validationRequested']);
  });

  it('puts a failed token creation in words and what to do, never the internal string', () => {
    renderPanel(
      {},
      {
        tokenStatus: 'failed',
        lastError: 'No registration token available',
        lastValidation: {
          success: false,
          message: 'Failed to generate new token',
          rateLimited: false,
          at: 0,
        },
      },
    );
    const text = document.body.textContent ?? '';
    expect(text).not.toContain('Failed to generate new token');
    expect(text).not.toContain('No registration token available');
    expect(screen.getByTestId('push-failure').textContent).toMatch(/QuPM tries again every 30 minutes/);
  });

  it('never shows an unknown failure’s own text', () => {
    renderPanel({}, { tokenStatus: 'failed', lastError: 'TypeError: Failed to fetch' });
    expect(document.body.textContent).not.toContain('Failed to fetch');
    expect(screen.getByTestId('push-failure').textContent).toMatch(/^Push couldn’t be set up on this device/);
  });

  it('says why push is off where the environment disables it, with no action', () => {
    renderPanel({ environmentEnabled: false });
    expect(screen.getByTestId('push-status').textContent).toBe(
      'Push is off on development hosts (localhost and IP addresses).',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});
