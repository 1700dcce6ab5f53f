import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createFirebaseBackend } from '@/backend/firebase';
import type { AdapterHost } from '@/backend/host';
import { getServiceWorkerRegistration } from '@/platform/serviceWorker';
import { CONFIG, FakeFirebaseError, resetSdkFakes } from './sdkFakes';
import type * as Fakes from './sdkFakes';
import type { AppFake, MessagingFake } from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());
jest.mock('firebase/firestore', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFirestoreModule());
jest.mock('firebase/functions', () => jest.requireActual<typeof Fakes>('./sdkFakes').createFunctionsModule());
jest.mock('firebase/messaging', () => jest.requireActual<typeof Fakes>('./sdkFakes').createMessagingModule());

const app = jest.requireMock<AppFake>('firebase/app');
const fm = jest.requireMock<MessagingFake>('firebase/messaging');

/** The app's own worker registration (/sw.js at scope /) with its push subscription, if any. */
function ownRegistration(
  subscription: { unsubscribe: jest.Mock } | null = { unsubscribe: jest.fn(async () => true) },
) {
  return {
    scope: 'https://qupm.example/',
    pushManager: { getSubscription: jest.fn(async () => subscription) },
  } as unknown as ServiceWorkerRegistration & { pushManager: { getSubscription: jest.Mock } };
}

/** The browser around the page: its service-worker container and notification permission. */
function browser(
  registration: ServiceWorkerRegistration | undefined,
  permission: NotificationPermission = 'granted',
) {
  const serviceWorker = { getRegistration: jest.fn(async () => registration), register: jest.fn() };
  Object.defineProperty(globalThis, 'navigator', { value: { serviceWorker }, configurable: true });
  Object.defineProperty(globalThis, 'Notification', { value: { permission }, configurable: true });
  return serviceWorker;
}

/** The page as src/backend/index.ts hands it to the adapter: the worker owner answers for the registration. */
const page: AdapterHost = { serviceWorkerRegistration: getServiceWorkerRegistration };

beforeEach(() => resetSdkFakes());
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'navigator');
  Reflect.deleteProperty(globalThis, 'Notification');
});

describe('pushProvider.getToken', () => {
  it("asks FCM for a token on the app's own worker registration with the given VAPID key", async () => {
    const registration = ownRegistration();
    const token = await createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: 'given-key',
      serviceWorkerRegistration: registration,
    });
    expect(fm.getMessaging).toHaveBeenCalledWith(app.initializeApp.mock.results[0]?.value);
    expect(fm.getToken).toHaveBeenCalledWith(fm.messaging, {
      vapidKey: 'given-key',
      serviceWorkerRegistration: registration,
    });
    expect(token).toBe('fcm-token');
  });

  it("uses the project's configured VAPID key when none is given", async () => {
    await createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: '',
      serviceWorkerRegistration: ownRegistration(),
    });
    expect(fm.getToken.mock.calls[0]?.[1]).toMatchObject({ vapidKey: 'config-vapid-key' });
  });

  it('refuses with FAILED_PRECONDITION where the browser cannot do push, without creating messaging', async () => {
    fm.isSupported.mockResolvedValue(false);
    const getToken = createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: 'k',
      serviceWorkerRegistration: ownRegistration(),
    });
    await expect(getToken).rejects.toMatchObject({
      name: 'BackendError',
      status: 'FAILED_PRECONDITION',
      message: 'Push messaging is not supported in this browser',
    });
    expect(fm.getMessaging).not.toHaveBeenCalled();
    expect(fm.getToken).not.toHaveBeenCalled();
  });

  it('never asks FCM without a registration (the SDK would register a root firebase-messaging-sw.js)', async () => {
    const getToken = createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: 'k',
      serviceWorkerRegistration: undefined as unknown as ServiceWorkerRegistration,
    });
    await expect(getToken).rejects.toMatchObject({ status: 'FAILED_PRECONDITION' });
    expect(fm.getToken).not.toHaveBeenCalled();
  });

  it('answers PERMISSION_DENIED when notifications are blocked', async () => {
    fm.getToken.mockRejectedValue(new FakeFirebaseError('messaging/permission-blocked'));
    const getToken = createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: 'k',
      serviceWorkerRegistration: ownRegistration(),
    });
    await expect(getToken).rejects.toMatchObject({ name: 'BackendError', status: 'PERMISSION_DENIED' });
  });

  it('carries FCM’s own words for a blocked permission, as the SDK itself says them (spec §8)', async () => {
    // The SDK's message for messaging/permission-blocked, read from the installed @firebase/messaging itself.
    const sdkSource = readFileSync(
      path.join(process.cwd(), 'node_modules/@firebase/messaging/dist/index.cjs.js'),
      'utf8',
    );
    const fcmWords = /\["permission-blocked"[^\]]*\]:\s*'([^']+)'/.exec(sdkSource)?.[1];
    expect(fcmWords).toBe('The notification permission was not granted and blocked instead.');
    expect(createFirebaseBackend(CONFIG).pushProvider.permissionBlockedMessage).toBe(fcmWords);
    fm.getToken.mockRejectedValue(new FakeFirebaseError('messaging/permission-blocked'));
    const getToken = createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: 'k',
      serviceWorkerRegistration: ownRegistration(),
    });
    await expect(getToken).rejects.toMatchObject({ message: fcmWords });
  });

  it('checks support and creates messaging once for many calls', async () => {
    const backend = createFirebaseBackend(CONFIG);
    const options = { vapidKey: 'k', serviceWorkerRegistration: ownRegistration() };
    await Promise.all([backend.pushProvider.getToken(options), backend.pushProvider.getToken(options)]);
    await backend.pushProvider.getToken(options);
    expect(fm.isSupported).toHaveBeenCalledTimes(1);
    expect(fm.getMessaging).toHaveBeenCalledTimes(1);
  });
});

describe('pushProvider.deleteToken', () => {
  it('deletes the token FCM gave in this page', async () => {
    const backend = createFirebaseBackend(CONFIG);
    await backend.pushProvider.getToken({ vapidKey: 'k', serviceWorkerRegistration: ownRegistration() });
    await expect(backend.pushProvider.deleteToken()).resolves.toBe(true);
    expect(fm.deleteToken).toHaveBeenCalledWith(fm.messaging);
  });

  it("after a reload, hands FCM the app's own registration first and never lets it register a worker", async () => {
    const registration = ownRegistration();
    const serviceWorker = browser(registration);
    await expect(createFirebaseBackend(CONFIG, page).pushProvider.deleteToken()).resolves.toBe(true);
    expect(fm.getToken).toHaveBeenCalledWith(fm.messaging, {
      vapidKey: 'config-vapid-key',
      serviceWorkerRegistration: registration,
    });
    expect(fm.getToken.mock.invocationCallOrder[0]).toBeLessThan(
      fm.deleteToken.mock.invocationCallOrder[0] ?? 0,
    );
    expect(serviceWorker.register).not.toHaveBeenCalled();
  });

  it('answers false without asking FCM when this device has no push subscription', async () => {
    browser(ownRegistration(null));
    await expect(createFirebaseBackend(CONFIG, page).pushProvider.deleteToken()).resolves.toBe(false);
    expect(fm.getToken).not.toHaveBeenCalled();
    expect(fm.deleteToken).not.toHaveBeenCalled();
  });

  it('answers false without asking FCM when the app has no worker registered', async () => {
    browser(undefined);
    await expect(createFirebaseBackend(CONFIG, page).pushProvider.deleteToken()).resolves.toBe(false);
    expect(fm.deleteToken).not.toHaveBeenCalled();
  });

  it('drops the subscription itself, without a permission prompt, when notifications are no longer granted', async () => {
    const subscription = { unsubscribe: jest.fn(async () => true) };
    browser(ownRegistration(subscription), 'default');
    await expect(createFirebaseBackend(CONFIG, page).pushProvider.deleteToken()).resolves.toBe(true);
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(fm.getToken).not.toHaveBeenCalled();
  });

  it('answers false where the browser cannot do push (no token can exist)', async () => {
    fm.isSupported.mockResolvedValue(false);
    await expect(createFirebaseBackend(CONFIG).pushProvider.deleteToken()).resolves.toBe(false);
    expect(fm.deleteToken).not.toHaveBeenCalled();
  });

  it('answers UNAVAILABLE when FCM cannot be reached', async () => {
    const backend = createFirebaseBackend(CONFIG);
    await backend.pushProvider.getToken({ vapidKey: 'k', serviceWorkerRegistration: ownRegistration() });
    fm.deleteToken.mockRejectedValue(new FakeFirebaseError('messaging/token-unsubscribe-failed'));
    await expect(backend.pushProvider.deleteToken()).rejects.toMatchObject({ status: 'UNAVAILABLE' });
  });
});
