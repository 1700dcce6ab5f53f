// Live messages and the live status of the local adapter, on the one stream of stream.ts. Each message
// subscription knows what its subscriber holds (`since`: everything before a millisecond and some ids of it); on
// every (re)connect it fetches what is newer (paging forward with `after` cursors) while it holds back the live
// events that arrive meanwhile, then delivers both as one batch, in order, each message once. The server keeps
// createdAt from going back within a channel (server/services/channels.ts), so what is newer than `since` in
// commit order is never older in (createdAt, id) order: catching up from `since.createdAt` misses nothing.
//
// Changes (edits, deletions) of any message, also one older than what the subscriber holds, are
// caught up the same way on their version stamp (core/messages.ts versionOf; `since.changes`): the server stamps
// a change after every version of the channel before it (server/services/messageEdits.ts), so paging forward
// from the newest version held misses none. A version is delivered once; an older copy never follows a newer.
import {
  advanceChanges,
  changesOf,
  compareMessages,
  cursorOf,
  isChanged,
  isNewChange,
  isNewSince,
  versionOf,
} from '@core/messages';
import type { ChangesSince, MessageCursor, MessagesSince } from '@core/messages';
import type { ChatMessage } from '@core/model';
import type { LiveStatus, Unsubscribe } from '../ports';
import { defaultBackoff } from './stream';
import type { LiveStream } from './stream';
import { readChatMessage } from '@core/answers';
import { BackendError } from '../ports';

/** Messages asked for at once while catching up (the server's page maximum). */
export const CATCH_UP_PAGE = 100;

interface Subscription {
  channelId: string;
  since: MessagesSince;
  /** The changes delivered so far (or held when it subscribed). */
  changes: ChangesSince;
  listener: (messages: ChatMessage[]) => void;
  /** The catch-up under way (its run number), or 0 when none is. */
  catchingUp: number;
  /** Catch-ups started so far: each run's number, so a late answer of an older run is known as such. */
  runs: number;
  /** Live messages that arrived while catching up: delivered with what the catch-up brings. */
  held: ChatMessage[];
  retry: unknown;
  failures: number;
}

export interface LiveMessages {
  subscribeMessages(
    channelId: string,
    since: MessagesSince,
    listener: (messages: ChatMessage[]) => void,
  ): Unsubscribe;
  subscribeStatus(listener: (status: LiveStatus) => void): Unsubscribe;
}

export function createLiveMessages(deps: {
  stream: LiveStream;
  /** The oldest `limit` messages of the channel after `after`, oldest first. */
  listAfter: (channelId: string, after: MessageCursor, limit: number) => Promise<ChatMessage[]>;
  /** The first `limit` changes of the channel after `after` (a version and an id), in that order. */
  listChangedAfter: (channelId: string, after: MessageCursor, limit: number) => Promise<ChatMessage[]>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  backoff?: (failures: number) => number;
}): LiveMessages {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const backoff = deps.backoff ?? defaultBackoff;
  const subscriptions = new Set<Subscription>();
  const statusListeners = new Set<(status: LiveStatus) => void>();
  let connection: 'connecting' | 'open' | 'down' = 'connecting';
  let wasLive = false;
  let status: LiveStatus = 'connecting';
  let catchUps = 0;
  let stopStream: Unsubscribe | null = null;

  const computeStatus = (): LiveStatus => {
    if (connection === 'open' && catchUps === 0) return 'live';
    return wasLive || connection === 'down' ? 'interrupted' : 'connecting';
  };
  const updateStatus = (): void => {
    const next = computeStatus();
    if (next === 'live') wasLive = true;
    if (next === status) return;
    status = next;
    for (const listener of [...statusListeners]) listener(next);
  };

  /**
   * The messages and versions the subscriber has not seen, in order, once (of two copies of one message only the
   * later version); `since` and `changes` move past them. Each is judged against what was delivered before this
   * batch, so the order within it does not matter.
   */
  const deliver = (sub: Subscription, messages: readonly ChatMessage[]): void => {
    const latest = new Map<string, ChatMessage>();
    for (const message of messages) {
      const other = latest.get(message.id);
      if (other === undefined || versionOf(message) >= versionOf(other)) latest.set(message.id, message);
    }
    const before = sub.changes;
    const fresh: ChatMessage[] = [];
    for (const message of [...latest.values()].sort(compareMessages)) {
      const created = isNewSince(message, sub.since);
      if (!created && !(isChanged(message) && isNewChange(message, before))) continue;
      fresh.push(message);
      sub.changes = advanceChanges(sub.changes, message);
      if (!created) continue;
      if (message.createdAt > sub.since.createdAt)
        sub.since = { createdAt: message.createdAt, ids: [message.id] };
      else sub.since.ids.push(message.id);
    }
    if (fresh.length > 0 && subscriptions.has(sub)) sub.listener(fresh);
  };

  /** Pages forward through `list` from `from` until a page is short; `next` is the cursor after a message. */
  async function pageForward(
    list: (cursor: MessageCursor) => Promise<ChatMessage[]>,
    from: MessageCursor,
    next: (message: ChatMessage) => MessageCursor,
  ): Promise<ChatMessage[]> {
    const fetched: ChatMessage[] = [];
    let cursor = from;
    for (;;) {
      const page = await list(cursor);
      fetched.push(...page);
      const newest = page.at(-1);
      if (page.length < CATCH_UP_PAGE || !newest) return fetched;
      cursor = next(newest);
    }
  }

  const isGoneForGood = (error: unknown): boolean =>
    error instanceof BackendError && (error.status === 'NOT_FOUND' || error.status === 'PERMISSION_DENIED');

  const finishCatchUp = (sub: Subscription): void => {
    sub.catchingUp = 0;
    catchUps -= 1;
    updateStatus();
  };

  async function catchUp(sub: Subscription): Promise<void> {
    if (sub.retry !== null) clearTimer(sub.retry);
    sub.retry = null;
    if (sub.catchingUp === 0) {
      catchUps += 1;
      updateStatus();
    }
    sub.runs += 1;
    const run = (sub.catchingUp = sub.runs);
    const fetched: ChatMessage[] = [];
    try {
      const [created, changed] = await Promise.all([
        pageForward(
          (cursor) => deps.listAfter(sub.channelId, cursor, CATCH_UP_PAGE),
          { createdAt: sub.since.createdAt, id: '' },
          cursorOf,
        ),
        pageForward(
          (cursor) => deps.listChangedAfter(sub.channelId, cursor, CATCH_UP_PAGE),
          { createdAt: sub.changes.at, id: '' },
          (message) => ({ createdAt: versionOf(message), id: message.id }),
        ),
      ]);
      fetched.push(...created, ...changed);
    } catch (error) {
      if (!subscriptions.has(sub)) return;
      if (isGoneForGood(error)) {
        // The channel was deleted, or this person is no longer in it (a reload drawn from the last-known state
        // can still hold it): no retry can bring it back, and a catch-up left open would keep every channel's
        // live status at "connecting". The channel list's own update takes it off the screen.
        if (sub.catchingUp === run) {
          sub.held = [];
          finishCatchUp(sub);
        }
        return;
      }
      if (sub.catchingUp === run) {
        // Still connected: try again; a reconnect starts a new catch-up anyway.
        sub.failures += 1;
        sub.retry = setTimer(
          () => {
            sub.retry = null;
            if (connection === 'open') void catchUp(sub);
          },
          backoff(sub.failures - 1),
        );
      }
      return;
    }
    if (!subscriptions.has(sub)) return;
    if (sub.catchingUp !== run) {
      // A newer catch-up (the connection reopened meanwhile) is under way: it delivers this with its own. If it
      // is over already, what this one found is delivered now (anything already delivered is skipped).
      if (sub.catchingUp !== 0) sub.held.push(...fetched);
      else deliver(sub, fetched);
      return;
    }
    sub.failures = 0;
    const held = sub.held;
    sub.held = [];
    finishCatchUp(sub);
    deliver(sub, [...fetched, ...held]);
  }

  const onMessageEvent = (message: ChatMessage): void => {
    for (const sub of subscriptions) {
      if (sub.channelId !== message.channelId) continue;
      if (sub.catchingUp !== 0) sub.held.push(message);
      else deliver(sub, [message]);
    }
  };

  deps.stream.onOpen(() => {
    for (const sub of subscriptions) void catchUp(sub);
  });
  deps.stream.onState((state) => {
    connection = state;
    // Closed (signed out): the next connection starts afresh.
    if (state === 'connecting') wasLive = false;
    updateStatus();
  });

  return {
    subscribeMessages(channelId, since, listener) {
      const sub: Subscription = {
        channelId,
        since: { createdAt: since.createdAt, ids: [...since.ids] },
        changes: { ...changesOf(since), ids: [...changesOf(since).ids] },
        listener,
        catchingUp: 0,
        runs: 0,
        held: [],
        retry: null,
        failures: 0,
      };
      subscriptions.add(sub);
      stopStream ??= deps.stream.subscribe((event) => {
        if (event.type !== 'message') return;
        const message = readChatMessage(event.data.message);
        if (message) onMessageEvent(message);
      });
      // Already connected: catch up now; otherwise the next open does.
      if (connection === 'open') void catchUp(sub);
      return () => {
        if (!subscriptions.delete(sub)) return;
        if (sub.retry !== null) clearTimer(sub.retry);
        if (sub.catchingUp !== 0) finishCatchUp(sub);
        if (subscriptions.size === 0) {
          stopStream?.();
          stopStream = null;
        }
      };
    },

    subscribeStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => void statusListeners.delete(listener);
    },
  };
}
