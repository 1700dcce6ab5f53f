// One live connection per tab to the embedded server's Server-Sent Events, shared by every subscription. It
// opens with the first subscriber (with a single-use ticket, so no token lands in a URL), reconnects with backoff
// after a failure (at once when the browser comes back online, or when the server ends the stream because its
// access token expired), and closes when the last subscriber leaves. Every (re)connect is announced to `onOpen`
// listeners, which catch up with what the connection missed (src/backend/local/live.ts).
import type { StreamClosingReason, StreamEvent } from '@core/wire';
import type { Unsubscribe } from '../ports';

export type StreamListener = (event: StreamEvent) => void;

/** Where the connection stands: never opened yet, open, or down and being retried. */
export type ConnectionState = 'connecting' | 'open' | 'down';

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onerror: ((event: Event) => void) | null;
}

export interface LiveStream {
  subscribe(listener: StreamListener): Unsubscribe;
  /** Called each time the connection (re)opens: whatever happened while it was down must be caught up. */
  onOpen(listener: () => void): Unsubscribe;
  /** Called with the current state once subscribed, then on every change. */
  onState(listener: (state: ConnectionState) => void): Unsubscribe;
  /** Connects now if the connection is down and waiting to retry (the network came back). */
  wake(): void;
  /** Drops the connection (sign-out); subscribers stay and reconnect on the next subscribe. */
  close(): void;
}

const EVENT_TYPES: StreamEvent['type'][] = [
  'message',
  'user',
  'channel',
  'offers',
  'invitations',
  'mutes',
  'booking',
  'channelRemoved',
  'services',
  'receipt',
  'typing',
  'closing',
];
const CLOSING_REASONS: StreamClosingReason[] = ['signed-out', 'expired'];
const MAX_BACKOFF_MS = 30_000;

/** 1 s, 2 s, 4 s … up to 30 s. */
export const defaultBackoff = (failures: number): number =>
  Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures, 5));

export function createLiveStream(deps: {
  getTicket: () => Promise<string>;
  open: (url: string) => EventSourceLike;
  url: (ticket: string) => string;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  backoff?: (failures: number) => number;
  /** The server ended the stream because the session ended elsewhere: the session is checked. */
  onSessionEnded?: () => void;
}): LiveStream {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const backoff = deps.backoff ?? defaultBackoff;
  const listeners = new Set<StreamListener>();
  const openListeners = new Set<() => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let source: EventSourceLike | null = null;
  let connecting = false;
  let failures = 0;
  let retry: unknown = null;
  /** The id of the last event of this connection: a repeated or earlier one is dropped. */
  let lastId = -1;

  const setState = (next: ConnectionState): void => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const safely = (fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      // One subscriber's failure never stops the others, nor the connection.
      console.error('A live update could not be handled', error);
    }
  };

  const drop = (): void => {
    source?.close();
    source = null;
  };

  const scheduleReconnect = (delay = backoff(failures)): void => {
    if (listeners.size === 0 || retry !== null) return;
    failures += 1;
    retry = setTimer(() => {
      retry = null;
      void connect();
    }, delay);
  };

  /** The server ended the stream; `null`: for a reason this client does not know (treated as a drop). */
  const onClosing = (reason: StreamClosingReason | null): void => {
    drop();
    setState('down');
    if (reason === null) {
      scheduleReconnect();
      return;
    }
    if (reason === 'expired') {
      // Planned: the access token the stream was opened with expired. A new ticket (and token) at once.
      failures = 0;
      void connect();
      return;
    }
    deps.onSessionEnded?.();
    scheduleReconnect();
  };

  const dispatch = (from: EventSourceLike, type: StreamEvent['type'], event: MessageEvent<string>): void => {
    if (source !== from) return; // a late event of a connection already dropped
    const id = Number(event.lastEventId);
    if (event.lastEventId !== '' && Number.isFinite(id)) {
      if (id <= lastId) return;
      lastId = id;
    }
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return; // a malformed event is ignored, never thrown into the page
    }
    if (typeof data !== 'object' || data === null) return;
    if (type === 'closing') {
      const reason = (data as { reason?: unknown }).reason;
      onClosing(
        CLOSING_REASONS.includes(reason as StreamClosingReason) ? (reason as StreamClosingReason) : null,
      );
      return;
    }
    const streamEvent = { type, data } as StreamEvent;
    for (const listener of [...listeners]) safely(() => listener(streamEvent));
  };

  async function connect(): Promise<void> {
    if (source || connecting || listeners.size === 0) return;
    connecting = true;
    try {
      const ticket = await deps.getTicket();
      if (listeners.size === 0) return;
      const next = deps.open(deps.url(ticket));
      for (const type of EVENT_TYPES) next.addEventListener(type, (event) => dispatch(next, type, event));
      next.addEventListener('open', () => {
        if (source !== next) return;
        failures = 0;
        lastId = -1;
        // The catch-ups start before the state says open, so 'live' is reported only once they are done.
        for (const listener of [...openListeners]) safely(listener);
        setState('open');
      });
      next.onerror = () => {
        // EventSource would retry with the same (spent) ticket: close it and reconnect with a new one.
        next.close();
        if (source !== next) return;
        source = null;
        setState('down');
        scheduleReconnect();
      };
      source = next;
    } catch {
      setState('down');
      scheduleReconnect();
    } finally {
      connecting = false;
    }
  }

  const close = (): void => {
    drop();
    if (retry !== null) clearTimer(retry);
    retry = null;
    failures = 0;
    setState('connecting');
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
    onOpen(listener) {
      openListeners.add(listener);
      return () => void openListeners.delete(listener);
    },
    onState(listener) {
      stateListeners.add(listener);
      listener(state);
      return () => void stateListeners.delete(listener);
    },
    wake() {
      if (source || connecting || listeners.size === 0) return;
      if (retry !== null) clearTimer(retry);
      retry = null;
      void connect();
    },
    close,
  };
}
