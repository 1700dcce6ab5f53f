/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createAppStore } from '@/app/store';
import { DevicesSection } from '@/features/settings/DevicesSection';
import { devicesLoaded } from '@/features/settings/settingsSlice';
import type { PushTokenDoc } from '@core/model';
import { DEVICE_ID } from '../../support/pushHarness';
import { initialState } from '../../sagas/push/support';
import { recordActionTypes } from '../../support/recordingStore';

const doc = (id: string, deviceId: string, userAgent: string): PushTokenDoc => ({
  id,
  token: `token-${id}-${'x'.repeat(20)}`,
  deviceId,
  createdAt: 1,
  lastUsed: Date.UTC(2026, 0, 2),
  status: 'active',
  platform: 'web',
  userAgent,
});

describe('DevicesSection', () => {
  it('lets the person remove another device, and points to the push setting for this one', () => {
    const { store, seen, dispatch } = recordActionTypes(createAppStore({ preloadedState: initialState() }));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <DevicesSection />
        </MemoryRouter>
      </Provider>,
    );
    act(() => {
      dispatch(
        devicesLoaded({
          items: [
            doc('docThis0000000000001', DEVICE_ID, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0'),
            doc(
              'docOther000000000002',
              'other-device',
              'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/605.1',
            ),
          ],
        }),
      );
    });
    expect(screen.getByText('This device')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Notification settings' }).getAttribute('href')).toBe(
      '/settings/notifications',
    );
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Remove Safari on iOS',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Safari on iOS' }));
    expect(seen).toContain('settings/deviceRemoveRequested');
  });
});
