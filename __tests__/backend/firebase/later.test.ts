// The ports that load after the first screen (src/backend/firebase/later.ts): each stands in at once with every
// member of its interface; a call waits for the chunk and answers as the port does; a subscription answers its
// unsubscribe at once and starts only once the chunk is there, never when it was unsubscribed before; a chunk
// that fails to load is the call's refusal, and a subscription's logged failure. And the adapter made with them
// loads none of their SDK work until one is called.
import type * as Adapter from '@/backend/firebase';
import { BackendError } from '@/backend/ports';
import type { Unsubscribe } from '@/backend/ports';
import { LATER_PORT_SHAPES, lazyPort } from '@/backend/firebase/later';
import { createLaterPorts } from '@/backend/firebase/laterPorts';
import { createFirebaseSdk } from '@/backend/firebase/sdk';
import { createSenderNames } from '@/backend/firebase/senderNames';
import { CONFIG, flushPromises } from './sdkFakes';
import type * as Fakes from './sdkFakes';

jest.mock('firebase/app', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAppModule());
jest.mock('firebase/auth', () => jest.requireActual<typeof Fakes>('./sdkFakes').createAuthModule());

interface Greeter {
  greet(name: string): Promise<string>;
  subscribeGreetings(listener: (greeting: string) => void): Unsubscribe;
}

/** A greeter port whose load the test lets finish (or fail) when it likes. */
function deferredGreeter() {
  const listeners = new Set<(greeting: string) => void>();
  const port: Greeter = {
    greet: (name) => Promise.resolve(`Hello, ${name}`),
    subscribeGreetings(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  let finish: (loaded: Greeter) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const loading = new Promise<Greeter>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const load = jest.fn(() => loading);
  const greeter = lazyPort(load, { greet: 'call', subscribeGreetings: 'subscribe' }, 'greetings');
  return { greeter, load, listeners, finish: () => finish(port), fail: (error: unknown) => fail(error) };
}

describe('a port that loads later', () => {
  it('has every member at once, and loads nothing until one is used', () => {
    const { greeter, load } = deferredGreeter();
    expect(Object.keys(greeter).sort()).toEqual(['greet', 'subscribeGreetings']);
    expect(load).not.toHaveBeenCalled();
  });

  it('answers a call once the port is there, as the port does', async () => {
    const { greeter, finish } = deferredGreeter();
    let answer: string | null = null;
    void greeter.greet('Morgan').then((greeting) => {
      answer = greeting;
    });
    await flushPromises();
    expect(answer).toBeNull();
    finish();
    await flushPromises();
    expect(answer).toBe('Hello, Morgan');
  });

  it('starts a subscription once the port is there, and stops it when asked', async () => {
    const { greeter, finish, listeners } = deferredGreeter();
    const heard: string[] = [];
    const stop = greeter.subscribeGreetings((greeting) => heard.push(greeting));
    expect(listeners.size).toBe(0);
    finish();
    await flushPromises();
    expect(listeners.size).toBe(1);
    for (const listener of listeners) listener('Hi');
    expect(heard).toEqual(['Hi']);
    stop();
    expect(listeners.size).toBe(0);
  });

  it('never starts a subscription that was stopped before the port was there', async () => {
    const { greeter, finish, listeners } = deferredGreeter();
    const stop = greeter.subscribeGreetings(() => undefined);
    stop();
    finish();
    await flushPromises();
    expect(listeners.size).toBe(0);
  });

  it('refuses a call with the failed load, and logs a subscription that could not start', async () => {
    const { greeter, fail } = deferredGreeter();
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusal = new BackendError('UNAVAILABLE', 'The app could not load a part it needs.');
    const call = greeter.greet('Morgan');
    greeter.subscribeGreetings(() => undefined);
    fail(refusal);
    await expect(call).rejects.toBe(refusal);
    await flushPromises();
    expect(error).toHaveBeenCalledWith('greetings (subscribeGreetings) stopped', refusal);
    error.mockRestore();
  });
});

describe('the later ports of the Firebase adapter', () => {
  it('name every member the ports have, and only those', () => {
    const sdk = createFirebaseSdk(CONFIG, { persistence: 'memory' });
    const ports = createLaterPorts(sdk, createSenderNames(), { track: jest.fn() }, () => Promise.resolve([]));
    expect(Object.keys(LATER_PORT_SHAPES).sort()).toEqual(Object.keys(ports).sort());
    for (const [name, port] of Object.entries(ports)) {
      const shape = LATER_PORT_SHAPES[name as keyof typeof ports];
      expect([name, Object.keys(port as object).sort()]).toEqual([name, Object.keys(shape).sort()]);
      for (const member of Object.keys(shape))
        expect([name, member, typeof (port as Record<string, unknown>)[member]]).toEqual([
          name,
          member,
          'function',
        ]);
    }
  });

  it('stand in the adapter with the same members', () => {
    const { createFirebaseBackend } = jest.requireActual<typeof Adapter>('@/backend/firebase');
    const backend = createFirebaseBackend(CONFIG);
    for (const [name, shape] of Object.entries(LATER_PORT_SHAPES))
      expect([name, Object.keys(backend[name as keyof typeof LATER_PORT_SHAPES]).sort()]).toEqual([
        name,
        Object.keys(shape).sort(),
      ]);
  });
});
