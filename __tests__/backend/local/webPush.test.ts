// The local backend's push provider at the browser edge: a PushManager stand-in on a registration.
import {
  createWebPushProvider,
  encodeSubscription,
  WEB_PUSH_PERMISSION_BLOCKED,
} from '@/backend/local/webPush';
import { bytesToBase64Url } from '@/backend/local/base64url';

const KEY_A = new Uint8Array(65).fill(4);
const KEY_B = new Uint8Array(65).fill(7);

function subscription(key: Uint8Array, endpoint = 'https://fcm.googleapis.com/fcm/send/a') {
  const json = { endpoint, expirationTime: null, keys: { p256dh: 'p', auth: 'a' } };
  return {
    options: { applicationServerKey: key.buffer as ArrayBuffer },
    toJSON: () => json,
    unsubscribe: jest.fn(async () => true),
  };
}

function registration(existing: ReturnType<typeof subscription> | null) {
  const pushManager = {
    getSubscription: jest.fn(async () => existing),
    subscribe: jest.fn(async ({ applicationServerKey }: { applicationServerKey: Uint8Array }) =>
      subscription(applicationServerKey, 'https://fcm.googleapis.com/fcm/send/new'),
    ),
  };
  return { pushManager } as unknown as ServiceWorkerRegistration & { pushManager: typeof pushManager };
}

describe('the local Web Push provider', () => {
  it('reads the server’s public key once and asks again after a failure', async () => {
    const read = jest.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('BKey');
    const provider = createWebPushProvider(read);
    await expect(provider.getPublicKey()).rejects.toThrow('offline');
    expect(await provider.getPublicKey()).toBe('BKey');
    expect(await provider.getPublicKey()).toBe('BKey');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('subscribes with the key and returns the subscription as a token', async () => {
    const reg = registration(null);
    const token = await createWebPushProvider(jest.fn()).getToken({
      vapidKey: bytesToBase64Url(KEY_A),
      serviceWorkerRegistration: reg,
    });
    expect(reg.pushManager.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: KEY_A,
    });
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toMatchObject({
      endpoint: 'https://fcm.googleapis.com/fcm/send/new',
    });
  });

  it('reuses a subscription made with the same key, without subscribing again', async () => {
    const existing = subscription(KEY_A);
    const reg = registration(existing);
    const token = await createWebPushProvider(jest.fn()).getToken({
      vapidKey: bytesToBase64Url(KEY_A),
      serviceWorkerRegistration: reg,
    });
    expect(token).toBe(encodeSubscription(existing));
    expect(reg.pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('replaces a subscription made with another server key', async () => {
    const existing = subscription(KEY_B);
    const reg = registration(existing);
    await createWebPushProvider(jest.fn()).getToken({
      vapidKey: bytesToBase64Url(KEY_A),
      serviceWorkerRegistration: reg,
    });
    expect(existing.unsubscribe).toHaveBeenCalled();
    expect(reg.pushManager.subscribe).toHaveBeenCalled();
  });

  it('names the browser’s blocked-permission message (spec §8)', () => {
    expect(createWebPushProvider(jest.fn()).permissionBlockedMessage).toBe(WEB_PUSH_PERMISSION_BLOCKED);
  });
});
