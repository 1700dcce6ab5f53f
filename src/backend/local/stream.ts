// One live connection per tab to the embedded server's Server-Sent Events, shared by every subscription. It
// opens with the first subscriber (with a single-use ticket, so no token lands in a URL), reconnects with
// backoff after a failure, and closes when the last subscriber leaves.
import type { StreamEvent } from '@core/wire';
import type { Unsubscribe } from '../ports';

export type StreamListener = (event: StreamEvent) => void;

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onerror: ((event: Event) => void) | null;
}

export interface LiveStream {
  subscribe(listener: StreamListener): Unsubscribe;
  /** Drops the connection (sign-out); subscribers stay and reconnect on the next subscribe. */
  close(): void;
}

const EVENT_TYPES: StreamEvent['type'][] = ['message', 'user', 'channel', 'offers', 'tokens', 'invitation'];
const MAX_BACKOFF_MS = 30_000;

export function createLiveStream(deps: {
  getTicket: () => Promise<string>;
  open: (url: string) => EventSourceLike;
  url: (ticket: string) => string;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}): LiveStream {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const listeners = new Set<StreamListener>();
  let source: EventSourceLike | null = null;
  let connecting = false;
  let failures = 0;
  let retry: unknown = null;

  const dispatch = (type: StreamEvent['type'], raw: string): void => {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return; // a malformed event is ignored, never thrown into the page
    }
    if (typeof data !== 'object' || data === null) return;
    const event = { type, data } as StreamEvent;
    for (const listener of [...listeners]) listener(event);
  };

  const scheduleReconnect = (): void => {
    if (listeners.size === 0 || retry !== null) return;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures, 5));
    failures += 1;
    retry = setTimer(() => {
      retry = null;
      void connect();
    }, delay);
  };

  async function connect(): Promise<void> {
    if (source || connecting || listeners.size === 0) return;
    connecting = true;
    try {
      const ticket = await deps.getTicket();
      if (listeners.size === 0) return;
      const next = deps.open(deps.url(ticket));
      for (const type of EVENT_TYPES) next.addEventListener(type, (event) => dispatch(type, event.data));
      next.addEventListener('open', () => {
        failures = 0;
      });
      next.onerror = () => {
        // EventSource would retry with the same (spent) ticket: close it and reconnect with a new one.
        next.close();
        if (source === next) source = null;
        scheduleReconnect();
      };
      source = next;
    } catch {
      scheduleReconnect();
    } finally {
      connecting = false;
    }
  }

  const close = (): void => {
    source?.close();
    source = null;
    if (retry !== null) clearTimer(retry);
    retry = null;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) close();
      };
    },
    close,
  };
}
