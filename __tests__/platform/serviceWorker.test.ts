// The page's one owner of the service worker (src/platform/serviceWorker.ts), against a stand-in for the browser's
// worker container: what each saga and adapter gets from it, with service workers and without them.
import { END } from 'redux-saga';
import type { EventChannel } from 'redux-saga';
import type { PushMsgMessage } from '@/protocol/messages';
import {
  activateWaitingWorker,
  checkForNewVersion,
  createServiceWorkerChannel,
  createWorkerLifecycleChannel,
  createWorkerMessageChannel,
  getServiceWorkerRegistration,
  getWorkbox,
  hasWaitingWorker,
  isPageControlled,
  postToActiveWorker,
  postToWorker,
  readyServiceWorkerRegistration,
  restartServiceWorker,
  ServiceWorkerProtocolError,
  unregisterLegacyWorkers,
} from '@/platform/serviceWorker';
import type {
  ServiceWorkerEvent,
  WorkerLifecycleEvent,
  WorkerMessageEvent,
  Workbox,
} from '@/platform/serviceWorker';

const ORIGIN = 'https://qupm.test';

/** A worker that records what it was sent and answers requests on the port they carry. */
class FakeWorker {
  sent: unknown[] = [];
  constructor(
    readonly scriptURL: string,
    private readonly answer: (data: unknown) => unknown = () => undefined,
  ) {}
  postMessage(data: unknown, ports: MessagePort[] = []): void {
    this.sent.push(data);
    const port = ports[0];
    if (!port) return;
    port.postMessage(this.answer(data));
    port.close();
  }
}

interface FakeRegistration {
  scope: string;
  active: FakeWorker | null;
  waiting: FakeWorker | null;
  installing: FakeWorker | null;
  update: jest.Mock;
  unregister: jest.Mock;
}

function registration(scope: string, fields: Partial<FakeRegistration> = {}): FakeRegistration {
  return {
    scope,
    active: null,
    waiting: null,
    installing: null,
    update: jest.fn(async () => undefined),
    unregister: jest.fn(async () => true),
    ...fields,
  };
}

/** The browser's navigator.serviceWorker, as far as the page uses it. */
class FakeContainer extends EventTarget {
  controller: FakeWorker | null = null;
  own: FakeRegistration | undefined = undefined;
  all: FakeRegistration[] = [];
  ready: Promise<FakeRegistration> = new Promise(() => undefined);
  startMessages = jest.fn();
  listeners = 0;
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.listeners += 1;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
    this.listeners -= 1;
    super.removeEventListener(...args);
  }
  getRegistration = jest.fn(async () => this.own);
  getRegistrations = jest.fn(async () => this.all);
}

let container: FakeContainer;

function installNavigator(value: unknown): void {
  Object.defineProperty(globalThis, 'navigator', { value, configurable: true });
}

beforeEach(() => {
  container = new FakeContainer();
  installNavigator({ serviceWorker: container });
});

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'navigator');
});

/** Everything a channel emits until `act` has run, then the channel closed. */
async function collect<T extends NonNullable<unknown>>(
  channel: EventChannel<T>,
  act: () => void,
): Promise<T[]> {
  const seen: T[] = [];
  const takeNext = (): void =>
    channel.take((event) => {
      if (event === END) return;
      seen.push(event as T);
      takeNext();
    });
  takeNext();
  act();
  await Promise.resolve();
  channel.close();
  return seen;
}

const pushMsg: PushMsgMessage = {
  type: 'PUSH_MSG',
  messageId: 'm1',
  present: false,
  payload: {
    messageId: 'm1',
    data: { type: 'message', badge_count: 2, channelId: 'c1' },
    notification: { title: 'Dana', body: 'Notes are ready' },
  },
};

describe('the worker owner without service workers', () => {
  beforeEach(() => installNavigator({}));

  it('answers every question with "none" and never throws for a missing container', async () => {
    expect(isPageControlled()).toBe(false);
    await expect(getServiceWorkerRegistration()).resolves.toBeNull();
    await expect(checkForNewVersion()).resolves.toBeUndefined();
    await expect(activateWaitingWorker()).resolves.toBe(false);
    await expect(postToWorker({ type: 'foregroundHandled', messageId: 'm1' })).resolves.toBeUndefined();
    await expect(unregisterLegacyWorkers()).resolves.toEqual({ removed: [], failed: [] });
  });

  it('refuses requests that need a worker, so the protocol reports them', async () => {
    await expect(restartServiceWorker()).rejects.toThrow('No service worker is registered');
    await expect(readyServiceWorkerRegistration()).rejects.toBeInstanceOf(ServiceWorkerProtocolError);
    await expect(postToActiveWorker({ type: 'HEALTH_CHECK', timestamp: 1 })).rejects.toBeInstanceOf(
      ServiceWorkerProtocolError,
    );
  });

  it('gives channels that emit nothing', async () => {
    expect(await collect(createWorkerMessageChannel(), () => undefined)).toEqual([]);
    expect(await collect(createWorkerLifecycleChannel(), () => undefined)).toEqual([]);
  });

  it('treats a navigator whose serviceWorker getter throws (some private modes) as having none', async () => {
    installNavigator(
      Object.defineProperty({}, 'serviceWorker', {
        get() {
          throw new Error('SecurityError');
        },
      }),
    );
    expect(isPageControlled()).toBe(false);
    await expect(getServiceWorkerRegistration()).resolves.toBeNull();
  });
});

describe('the worker owner: registration and lifecycle', () => {
  it('keeps one Workbox for the page, listening to the container from the start', async () => {
    const first = await getWorkbox();
    expect(await getWorkbox()).toBe(first);
    // workbox-window listens for the worker's messages as soon as it exists (messages during load are buffered).
    expect(container.listeners).toBeGreaterThan(0);
  });

  it('loads the Workbox chunk again after a failed load instead of remembering the failure', async () => {
    await jest.isolateModulesAsync(async () => {
      let fail = true;
      jest.doMock('workbox-window', () => {
        if (fail) throw Object.assign(new Error('Loading chunk workbox failed.'), { name: 'ChunkLoadError' });
        return jest.requireActual('workbox-window');
      });
      const fresh = await import('@/platform/serviceWorker');
      await expect(fresh.getWorkbox()).rejects.toMatchObject({ name: 'ChunkLoadError' });
      fail = false;
      const wb = await fresh.getWorkbox();
      expect(typeof wb.register).toBe('function');
      expect(await fresh.getWorkbox()).toBe(wb);
    });
  });

  it('turns the Workbox lifecycle into channel events', async () => {
    const wb = new EventTarget() as unknown as Workbox & EventTarget;
    const fire = (type: string, isUpdate?: boolean): void => {
      wb.dispatchEvent(Object.assign(new Event(type), { isUpdate }));
    };
    const seen = await collect<ServiceWorkerEvent>(createServiceWorkerChannel(wb), () => {
      fire('controlling', false);
      fire('waiting', true);
      fire('activated');
    });
    expect(seen).toEqual([
      { type: 'controlling', isUpdate: false },
      { type: 'waiting', isUpdate: true },
      { type: 'activated', isUpdate: false },
    ]);
  });

  it('leaves a worker that already waited at registration to hasWaitingWorker (Workbox announces it too early)', async () => {
    const wb = new EventTarget() as unknown as Workbox & EventTarget;
    const seen = await collect<ServiceWorkerEvent>(createServiceWorkerChannel(wb), () => {
      wb.dispatchEvent(Object.assign(new Event('waiting'), { wasWaitingBeforeRegister: true }));
      wb.dispatchEvent(Object.assign(new Event('waiting'), { isUpdate: true }));
    });
    expect(seen).toEqual([{ type: 'waiting', isUpdate: true }]);
  });

  it('knows whether a worker controls the page', () => {
    expect(isPageControlled()).toBe(false);
    container.controller = new FakeWorker(`${ORIGIN}/sw.js`);
    expect(isPageControlled()).toBe(true);
  });

  it('gives the registration of this scope to the push adapters, or null', async () => {
    await expect(getServiceWorkerRegistration()).resolves.toBeNull();
    container.own = registration(`${ORIGIN}/`);
    await expect(getServiceWorkerRegistration()).resolves.toBe(container.own);
  });
});

describe('the worker owner: messages', () => {
  it('sends a request to the active worker over a MessageChannel and resolves with its answer', async () => {
    const worker = new FakeWorker(`${ORIGIN}/sw.js`, (data) => ({ ...(data as object), answered: true }));
    container.ready = Promise.resolve(registration(`${ORIGIN}/`, { active: worker }));
    await expect(postToActiveWorker({ type: 'HEALTH_CHECK', timestamp: 7 })).resolves.toEqual({
      type: 'HEALTH_CHECK',
      timestamp: 7,
      answered: true,
    });
    expect(worker.sent).toEqual([{ type: 'HEALTH_CHECK', timestamp: 7 }]);
  });

  it('refuses a request when the registration has no active worker', async () => {
    container.ready = Promise.resolve(registration(`${ORIGIN}/`));
    await expect(postToActiveWorker({ type: 'HEALTH_CHECK', timestamp: 1 })).rejects.toThrow(
      new ServiceWorkerProtocolError('No active service worker'),
    );
  });

  it('posts foregroundHandled to the active worker without waiting for an answer', async () => {
    const worker = new FakeWorker(`${ORIGIN}/sw.js`);
    container.ready = Promise.resolve(registration(`${ORIGIN}/`, { active: worker }));
    await postToWorker({ type: 'foregroundHandled', messageId: 'm1' });
    expect(worker.sent).toEqual([{ type: 'foregroundHandled', messageId: 'm1' }]);
  });

  it('emits PUSH_MSG from the worker, counts what it cannot read, and starts the queued messages', async () => {
    const message = (data: unknown): MessageEvent => new MessageEvent('message', { data });
    const seen = await collect<WorkerMessageEvent>(createWorkerMessageChannel(), () => {
      container.dispatchEvent(message(pushMsg));
      container.dispatchEvent(message({ type: 'PUSH_MSG', messageId: 'm2' }));
      container.dispatchEvent(message('hello'));
    });
    expect(seen).toEqual([{ kind: 'push', message: pushMsg }, { kind: 'ignored' }, { kind: 'ignored' }]);
    expect(container.startMessages).toHaveBeenCalledTimes(1);
    expect(container.listeners).toBe(0);
  });

  it('emits controller changes and undeliverable messages, and removes its listeners when closed', async () => {
    const seen = await collect<WorkerLifecycleEvent>(createWorkerLifecycleChannel(), () => {
      container.dispatchEvent(new Event('controllerchange'));
      container.dispatchEvent(new Event('messageerror'));
    });
    expect(seen).toEqual([{ type: 'controllerchange' }, { type: 'messageerror' }]);
    expect(container.listeners).toBe(0);
  });
});

describe('the worker owner: restarts and updates', () => {
  it('restarts the worker and checks for a new version by updating its registration', async () => {
    container.own = registration(`${ORIGIN}/`);
    await restartServiceWorker();
    await checkForNewVersion();
    expect(container.own.update).toHaveBeenCalledTimes(2);
  });

  it('says whether a new version waits, from the registration itself', async () => {
    await expect(hasWaitingWorker()).resolves.toBe(false);
    container.own = registration(`${ORIGIN}/`, { active: new FakeWorker(`${ORIGIN}/sw.js`) });
    await expect(hasWaitingWorker()).resolves.toBe(false);
    container.own.waiting = new FakeWorker(`${ORIGIN}/sw.js`);
    await expect(hasWaitingWorker()).resolves.toBe(true);
  });

  it('sends SKIP_WAITING to the waiting worker, and says when none waits', async () => {
    container.own = registration(`${ORIGIN}/`);
    await expect(activateWaitingWorker()).resolves.toBe(false);
    const waiting = new FakeWorker(`${ORIGIN}/sw.js`);
    container.own.waiting = waiting;
    await expect(activateWaitingWorker()).resolves.toBe(true);
    expect(waiting.sent).toEqual([{ type: 'SKIP_WAITING' }]);
  });
});

describe('the worker owner: legacy messaging workers (spec §4)', () => {
  it("unregisters the legacy workers, keeps the app's own, and reports the ones that stay", async () => {
    const own = registration(`${ORIGIN}/`, { active: new FakeWorker(`${ORIGIN}/sw.js`) });
    const byScript = registration(`${ORIGIN}/old/`, {
      waiting: new FakeWorker(`${ORIGIN}/firebase-messaging-sw.js`),
    });
    const byScope = registration(`${ORIGIN}/firebase-cloud-messaging-push-scope`);
    const refused = registration(`${ORIGIN}/firebase-cloud-messaging-push-scope/2`, {
      unregister: jest.fn(async () => false),
    });
    const failing = registration(`${ORIGIN}/firebase-cloud-messaging-push-scope/3`, {
      unregister: jest.fn(async () => {
        throw new Error('InvalidStateError');
      }),
    });
    container.all = [own, byScript, byScope, refused, failing];
    await expect(unregisterLegacyWorkers()).resolves.toEqual({
      removed: [byScript.scope, byScope.scope],
      failed: [
        { scope: refused.scope, error: 'The browser refused to unregister it' },
        { scope: failing.scope, error: 'InvalidStateError' },
      ],
    });
    expect(own.unregister).not.toHaveBeenCalled();
  });
});
