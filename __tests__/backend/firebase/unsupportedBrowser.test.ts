// What a browser without web push really meets on Firebase: the real Firebase JS SDK (firebase/app and
// firebase/messaging, not faked), whose isSupported() answers false where the Push API, service workers or IndexedDB
// are missing (here: no window at all). The adapter refuses with the reason the push saga closes its gate on (spec
// §8: setup stops, nothing retries; tokenLifecycle.test.ts), and has no token to delete.
import { createFirebaseBackend } from '@/backend/firebase';
import { PUSH_UNSUPPORTED_MESSAGE } from '@/backend/firebase/errors';
import { CONFIG } from './sdkFakes';

const registration = {} as ServiceWorkerRegistration;

describe('the Firebase push provider where the SDK finds no web push', () => {
  it('is told so by the SDK itself', async () => {
    const { isSupported } = await import('firebase/messaging');
    expect(await isSupported()).toBe(false);
  });

  it('refuses with FAILED_PRECONDITION and the reason that stops setup', async () => {
    const refused = createFirebaseBackend(CONFIG).pushProvider.getToken({
      vapidKey: 'BKey',
      serviceWorkerRegistration: registration,
    });
    await expect(refused).rejects.toMatchObject({
      name: 'BackendError',
      status: 'FAILED_PRECONDITION',
      message: PUSH_UNSUPPORTED_MESSAGE,
      reason: 'push-unsupported-browser',
    });
  });

  it('has no token to delete', async () => {
    await expect(createFirebaseBackend(CONFIG).pushProvider.deleteToken()).resolves.toBe(false);
  });
});
