import { browserPushSupport, detectPushSupport } from '@/platform';
import type { PushCapability, PushGlobals } from '@/platform';
import { throwingGetter } from './fakes';

class FakePushManager {}
class FakeNotification {}

/** Globals of a browser that has everything push needs. */
function fullSupport(): PushGlobals {
  return {
    navigator: { serviceWorker: {} },
    PushManager: FakePushManager,
    Notification: FakeNotification,
    fetch: () => Promise.resolve(),
    indexedDB: {},
  };
}

describe('detectPushSupport', () => {
  it('reports support when every capability is present', () => {
    expect(detectPushSupport(fullSupport())).toEqual({ supported: true, missing: [] });
  });

  it('lists every capability, in spec order, when none is present', () => {
    expect(detectPushSupport({})).toEqual({
      supported: false,
      missing: ['serviceWorker', 'pushManager', 'notification', 'fetch', 'indexedDb'],
    });
  });

  it.each<[PushCapability, Partial<PushGlobals>]>([
    ['serviceWorker', { navigator: {} }],
    ['serviceWorker', { navigator: undefined }],
    ['serviceWorker', { navigator: 'Mozilla/5.0' }],
    ['pushManager', { PushManager: undefined }],
    ['notification', { Notification: null }],
    ['fetch', { fetch: undefined }],
    ['fetch', { fetch: {} }],
    ['indexedDb', { indexedDB: null }],
  ])('reports %s missing for %p', (capability, change) => {
    expect(detectPushSupport({ ...fullSupport(), ...change })).toEqual({
      supported: false,
      missing: [capability],
    });
  });

  it('finds a service worker defined on the navigator prototype, as browsers define it', () => {
    const navigator = Object.create({ serviceWorker: {} }) as object;
    expect(detectPushSupport({ ...fullSupport(), navigator }).supported).toBe(true);
  });

  it('does not read navigator.serviceWorker, whose getter throws in some private modes', () => {
    const navigator = Object.defineProperty({}, 'serviceWorker', throwingGetter());
    expect(detectPushSupport({ ...fullSupport(), navigator }).supported).toBe(true);
  });

  it.each<[PushCapability, keyof PushGlobals]>([
    ['indexedDb', 'indexedDB'],
    ['serviceWorker', 'navigator'],
    ['notification', 'Notification'],
  ])('reports %s missing when the %s getter throws', (capability, property) => {
    const globals = Object.defineProperty(fullSupport(), property, throwingGetter());
    expect(detectPushSupport(globals)).toEqual({ supported: false, missing: [capability] });
  });

  it('returns plain data that survives serialization', () => {
    const support = detectPushSupport({ navigator: {} });
    expect(JSON.parse(JSON.stringify(support))).toEqual(support);
  });
});

describe('browserPushSupport', () => {
  it('reports what the running environment lacks without throwing', () => {
    // Node has fetch but none of the browser's push machinery.
    expect(browserPushSupport()).toEqual({
      supported: false,
      missing: ['serviceWorker', 'pushManager', 'notification', 'indexedDb'],
    });
  });
});
