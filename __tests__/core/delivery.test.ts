// Who wants which delivery (spec §5), written once in core/delivery.ts and used by both backends (who gets a
// push), the client's push gate and its inbox (whether an open page shows a notice).
import {
  hasDeliveryChannel,
  wantsDelivery,
  wantsInApp,
  wantsPush,
  withDeliveryChannel,
} from '@core/delivery';
import type { DeliveryChannel } from '@core/limits';
import type { NotificationSettings } from '@core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@core/model';
import { canPresentInApp } from '@/sagas/inboxSaga';
import { selectPushGate } from '@/store/pushSlice';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { initialState as userInitial } from '@/store/userSlice';

const settings = (enabled: boolean, ...channels: DeliveryChannel[]): NotificationSettings => ({
  enabled,
  delivery: { channels },
});

describe('wantsPush and wantsInApp', () => {
  it.each([
    [settings(true, 'push', 'in_app'), true, true],
    [settings(true, 'push'), true, false],
    [settings(true, 'in_app'), false, true],
    [settings(true), false, false],
    [settings(false, 'push', 'in_app'), false, false],
    [null, false, false],
    [undefined, false, false],
  ])('%j → push %s, in-app %s', (value, push, inApp) => {
    expect(wantsPush(value)).toBe(push);
    expect(wantsInApp(value)).toBe(inApp);
    expect(wantsDelivery(value, 'push')).toBe(push);
    expect(wantsDelivery(value, 'in_app')).toBe(inApp);
  });

  it('new accounts want both', () => {
    expect(wantsPush(DEFAULT_NOTIFICATION_SETTINGS)).toBe(true);
    expect(wantsInApp(DEFAULT_NOTIFICATION_SETTINGS)).toBe(true);
  });
});

describe('the client decides as the backends do', () => {
  const all = [
    settings(true, 'push', 'in_app'),
    settings(true, 'push'),
    settings(true, 'in_app'),
    settings(true),
    settings(false, 'push', 'in_app'),
  ];

  /** A signed-in person on a device where push works, with `value` as their settings. */
  function state(value: NotificationSettings | null): RootState {
    const base = rootReducer(undefined, { type: 'test/init' });
    return {
      ...base,
      app: { ...base.app, rootMounted: true },
      push: {
        ...base.push,
        support: { supported: true, missing: [] },
        environmentEnabled: true,
      },
      user: {
        ...userInitial,
        status: 'signedIn',
        authUser: { uid: 'u1', email: 'a@b.co', displayName: null },
        userDocExists: true,
        notificationSettings: value,
      },
    } as RootState;
  }

  it.each(all)('the push gate opens exactly when the backend would push: %j', (value) => {
    expect(selectPushGate(state(value)).open).toBe(wantsPush(value));
  });

  it.each(all)('an open page presents exactly when in-app notices are wanted: %j', (value) => {
    expect(canPresentInApp(state(value).user)).toBe(wantsInApp(value));
  });

  it('a page presents while the settings are still unread (the defaults take in-app notices)', () => {
    expect(canPresentInApp(state(null).user)).toBe(true);
  });
});

describe('the email channel (issue #15 part 6)', () => {
  it('is off by default and for every account that never chose it', () => {
    expect(hasDeliveryChannel(DEFAULT_NOTIFICATION_SETTINGS, 'email')).toBe(false);
    expect(wantsDelivery(DEFAULT_NOTIFICATION_SETTINGS, 'email')).toBe(false);
    expect(hasDeliveryChannel(null, 'email')).toBe(false);
  });

  it('is switched on and off alone, the other channels kept in their order', () => {
    const on = withDeliveryChannel(DEFAULT_NOTIFICATION_SETTINGS, 'email', true);
    expect(on).toEqual({ enabled: true, delivery: { channels: ['push', 'in_app', 'email'] } });
    expect(withDeliveryChannel(on, 'email', true)).toEqual(on);
    expect(withDeliveryChannel(on, 'email', false)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    // Chosen, but with notifications off, nothing is wanted.
    expect(hasDeliveryChannel({ ...on, enabled: false }, 'email')).toBe(true);
    expect(wantsDelivery({ ...on, enabled: false }, 'email')).toBe(false);
  });
});
