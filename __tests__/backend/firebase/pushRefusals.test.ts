// The browser's refusal of push in a private window, as both adapters report it: Chromium's PushManager.subscribe
// rejects with an AbortError saying "permission denied" although the permission is granted; the embedded server's
// Web Push provider meets it directly, FCM's getToken passes it on as it came. Each adapter answers the same
// BackendError (src/backend/pushRefusals.ts), which the push saga stops on with its words (tokenLifecycle.test.ts).
import { createFirebaseBackend } from '@/backend/firebase';
import { createWebPushProvider } from '@/backend/local/webPush';
import { BackendError } from '@/backend/ports';
import type { PushProviderPort } from '@/backend/ports';
import { PUSH_REFUSED_IN_WINDOW_MESSAGE, windowRefusalOf } from '@/backend/pushRefusals';
import { CONFIG, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { MessagingFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const fm = jest.requireMock<MessagingFake>('firebase/messaging');

/** What Chromium's PushManager.subscribe rejects with in a private window. */
const privateWindowRefusal = () => new DOMException('Registration failed - permission denied', 'AbortError');

/** A registration whose PushManager has no subscription and refuses to make one. */
function refusingRegistration() {
  return {
    pushManager: {
      getSubscription: jest.fn(async () => null),
      subscribe: jest.fn(async () => {
        throw privateWindowRefusal();
      }),
    },
  } as unknown as ServiceWorkerRegistration;
}

beforeEach(() => resetSdkFakes());

const adapters: Array<[string, () => PushProviderPort]> = [
  ['the embedded server’s (Web Push)', () => createWebPushProvider(async () => 'BKey')],
  [
    'Firebase’s (FCM)',
    () => {
      // FCM's getToken calls PushManager.subscribe and lets the browser's rejection through unchanged.
      fm.getToken.mockRejectedValue(privateWindowRefusal());
      return createFirebaseBackend(CONFIG).pushProvider;
    },
  ],
];

describe.each(adapters)('%s push provider in a private window', (_name, make) => {
  it('answers FAILED_PRECONDITION with the reason the push saga stops on', async () => {
    const refused = make().getToken({ vapidKey: 'BKey', serviceWorkerRegistration: refusingRegistration() });
    await expect(refused).rejects.toBeInstanceOf(BackendError);
    await expect(refused).rejects.toMatchObject({
      status: 'FAILED_PRECONDITION',
      message: PUSH_REFUSED_IN_WINDOW_MESSAGE,
      reason: 'push-refused-in-window',
    });
  });
});

describe('windowRefusalOf', () => {
  it('recognises only an AbortError saying "permission denied"', () => {
    expect(windowRefusalOf(privateWindowRefusal())?.reason).toBe('push-refused-in-window');
    expect(
      windowRefusalOf(new DOMException('Registration failed - push service error', 'AbortError')),
    ).toBeNull();
    expect(
      windowRefusalOf(new DOMException('Registration failed - permission denied', 'NotAllowedError')),
    ).toBeNull();
    expect(windowRefusalOf(new Error('permission denied'))).toBeNull();
    expect(windowRefusalOf(undefined)).toBeNull();
  });
});
