import { createForegroundWaits } from '@/sw/foreground';
import {
  createPushCounters,
  GENERIC_NOTIFICATION,
  GENERIC_TAG,
  handlePush,
  messagePath,
  sameOriginPath,
} from '@/sw/push';
import type { PushDeps } from '@/sw/push';
import { createSeenMessages } from '@/sw/seen';
import type { PushMsgMessage } from '@/protocol/messages';
import { FOREGROUND_HANDLED_WAIT_MS } from '@/timings';
import { createScope, fakeCaches, fakeWindow, IPHONE_UA, ORIGIN } from './swScope';
import type { FakeCaches, FakeWindow } from './swScope';

function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    set: (fn: () => void, ms: number) => {
      next += 1;
      pending.set(next, { fn, ms });
      return next;
    },
    clear: (id: unknown) => {
      pending.delete(id as number);
    },
    /** The waits still running, by duration. */
    live: () => [...pending.values()].map((t) => t.ms),
    expireAll: () => {
      for (const [id, timer] of [...pending]) {
        pending.delete(id);
        timer.fn();
      }
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(options: { userAgent?: string; windows?: FakeWindow[]; caches?: FakeCaches } = {}) {
  const scope = createScope(options);
  const timers = manualTimers();
  const foreground = createForegroundWaits(timers.set, timers.clear);
  const deps: PushDeps = {
    scope,
    seen: createSeenMessages(scope),
    foreground,
    counters: createPushCounters(),
    foregroundWaitMs: FOREGROUND_HANDLED_WAIT_MS,
  };
  return { scope, timers, foreground, deps };
}

/** A page that shows what it is asked to present and tells the worker so (spec §7 foregroundHandled). */
function answering(win: FakeWindow, foreground: ReturnType<typeof createForegroundWaits>): FakeWindow {
  win.onMessage = (message) => {
    const push = message as PushMsgMessage;
    if (push.type === 'PUSH_MSG' && push.present) queueMicrotask(() => foreground.handled(push.messageId));
  };
  return win;
}

function message(overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) {
  return JSON.stringify({
    messageId: 'm-1',
    data: { type: 'message', badge_count: 3, channelId: 'c1', ...data },
    notification: { title: 'Grace', body: 'See you at 10?' },
    ...overrides,
  });
}

const pushMsgs = (win: FakeWindow) => win.received.filter((m) => (m as PushMsgMessage).type === 'PUSH_MSG');

describe('handlePush', () => {
  it.each([
    ['an empty push', null],
    ['an empty string', ''],
    ['text that is not JSON', 'hello'],
    ['JSON of another shape', JSON.stringify({ hello: 'world' })],
    ['a message without a notification', JSON.stringify({ messageId: 'm', data: { type: 'x' } })],
    ['an array', '[1,2,3]'],
  ])('still shows one generic notification for %s, and tells no page', async (_label, text) => {
    const win = fakeWindow({ focused: true });
    const { scope, deps } = setup({ windows: [win] });
    await expect(handlePush(deps, text)).resolves.toBe('generic');
    expect(scope.notifications).toEqual([
      expect.objectContaining({ title: GENERIC_NOTIFICATION.title, body: GENERIC_NOTIFICATION.body }),
    ]);
    expect(win.received).toEqual([]);
    expect(deps.counters).toEqual({ shown: 0, inApp: 0, generic: 1, duplicates: 0 });
  });

  it('leaves one generic notification on screen after several garbled pushes', async () => {
    const { scope, deps } = setup();
    await handlePush(deps, 'x');
    await handlePush(deps, null);
    expect(scope.notifications.map((n) => n.tag)).toEqual([GENERIC_TAG]);
  });

  it('shows one notification with the title and body, tagged by message id, when no window is open', async () => {
    const { scope, deps } = setup();
    await expect(handlePush(deps, message())).resolves.toBe('shown');
    expect(scope.notifications).toEqual([
      expect.objectContaining({ title: 'Grace', body: 'See you at 10?', tag: 'm-1' }),
    ]);
    expect(scope.notifications[0]?.data).toEqual({ messageId: 'm-1', path: '/?channel=c1' });
  });

  it("takes FCM's fcmMessageId as the message id", async () => {
    const { scope, deps } = setup();
    await handlePush(deps, message({ messageId: undefined, fcmMessageId: 'fcm-9' }));
    expect(scope.notifications.map((n) => n.tag)).toEqual(['fcm-9']);
  });

  it('sets the app badge to a count above 0', async () => {
    const { scope, deps } = setup();
    await handlePush(deps, message({}, { badge_count: '7' }));
    expect(scope.badge).toBe(7);
  });

  it.each([0, -2, 'lots'])('clears the app badge for a badge_count of %p', async (count) => {
    const { scope, deps } = setup();
    await handlePush(deps, message({}, { badge_count: count }));
    expect(scope.badge).toBe('cleared');
  });

  it('shows nothing when the focused page handled the message in the foreground', async () => {
    const { scope, deps, foreground } = setup();
    const win = answering(fakeWindow({ focused: true }), foreground);
    scope.windows.push(win);
    await expect(handlePush(deps, message())).resolves.toBe('handledInForeground');
    expect(scope.shownCount).toBe(0);
    expect(pushMsgs(win)).toEqual([
      {
        type: 'PUSH_MSG',
        messageId: 'm-1',
        payload: expect.objectContaining({ messageId: 'm-1' }),
        present: true,
      },
    ]);
  });

  it('asks only the focused one of two windows to present it, and tells both', async () => {
    const { scope, deps, foreground } = setup();
    const background = answering(fakeWindow({ focused: false }), foreground);
    const focused = answering(fakeWindow({ focused: true }), foreground);
    scope.windows.push(background, focused);
    await expect(handlePush(deps, message())).resolves.toBe('handledInForeground');
    expect(pushMsgs(focused).map((m) => (m as PushMsgMessage).present)).toEqual([true]);
    expect(pushMsgs(background).map((m) => (m as PushMsgMessage).present)).toEqual([false]);
    expect(scope.shownCount).toBe(0);
  });

  it('asks one window only when two claim focus (most recently focused first)', async () => {
    const { scope, deps, foreground } = setup();
    const first = answering(fakeWindow({ focused: true }), foreground);
    const second = answering(fakeWindow({ focused: true }), foreground);
    scope.windows.push(first, second);
    await handlePush(deps, message());
    expect(
      [...pushMsgs(first), ...pushMsgs(second)].filter((m) => (m as PushMsgMessage).present),
    ).toHaveLength(1);
    expect(pushMsgs(first)).toEqual([expect.objectContaining({ present: true })]);
  });

  it('shows the notification when the focused page does not answer within the wait', async () => {
    const { scope, deps, timers } = setup({ windows: [fakeWindow({ focused: true })] });
    const outcome = handlePush(deps, message());
    await settle();
    expect(timers.live()).toEqual([FOREGROUND_HANDLED_WAIT_MS]);
    expect(scope.shownCount).toBe(0);
    timers.expireAll();
    await expect(outcome).resolves.toBe('shown');
    expect(scope.notifications.map((n) => n.tag)).toEqual(['m-1']);
  });

  it('shows the notification at once when no window is focused, and lets every window update its counts', async () => {
    const { scope, deps, timers } = setup({
      windows: [fakeWindow({ focused: false }), fakeWindow({ focused: true, visibilityState: 'hidden' })],
    });
    await expect(handlePush(deps, message())).resolves.toBe('shown');
    expect(timers.live()).toEqual([]);
    expect(scope.windows.map((w) => pushMsgs(w).map((m) => (m as PushMsgMessage).present))).toEqual([
      [false],
      [false],
    ]);
  });

  it('on iOS always shows the notification and asks no page to present it', async () => {
    const { scope, deps, foreground, timers } = setup({ userAgent: IPHONE_UA });
    const win = answering(fakeWindow({ focused: true }), foreground);
    scope.windows.push(win);
    await expect(handlePush(deps, message())).resolves.toBe('shown');
    expect(timers.live()).toEqual([]);
    expect(pushMsgs(win)).toEqual([expect.objectContaining({ present: false })]);
    expect(scope.notifications.map((n) => n.tag)).toEqual(['m-1']);
  });

  it('delivers a repeated message id only once', async () => {
    const { scope, deps, foreground } = setup();
    const win = answering(fakeWindow({ focused: false }), foreground);
    scope.windows.push(win);
    await handlePush(deps, message());
    await expect(handlePush(deps, message())).resolves.toBe('duplicate');
    expect(scope.shownCount).toBe(1);
    expect(pushMsgs(win)).toHaveLength(1);
  });

  it('remembers delivered ids across a restart of the worker', async () => {
    const caches = fakeCaches();
    const before = setup({ caches });
    await handlePush(before.deps, message());
    const after = setup({ caches });
    await expect(handlePush(after.deps, message())).resolves.toBe('duplicate');
    expect(after.scope.shownCount).toBe(0);
  });

  it('on iOS shows a repeated message again under its own tag, so one notification stays on screen', async () => {
    const { scope, deps } = setup({ userAgent: IPHONE_UA });
    await handlePush(deps, message());
    await expect(handlePush(deps, message())).resolves.toBe('duplicate');
    expect(scope.notifications.map((n) => n.tag)).toEqual(['m-1']);
  });

  it('delivers different message ids separately', async () => {
    const { scope, deps } = setup();
    await handlePush(deps, message({ messageId: 'a' }));
    await handlePush(deps, message({ messageId: 'b' }));
    expect(scope.notifications.map((n) => n.tag)).toEqual(['a', 'b']);
  });
});

describe('sameOriginPath', () => {
  it.each([
    ['/settings/about', '/settings/about'],
    ['/?channel=c1#end', '/?channel=c1#end'],
    [`${ORIGIN}/services`, '/services'],
  ])('keeps %s as %s', (input, path) => {
    expect(sameOriginPath(input, ORIGIN)).toBe(path);
  });

  it.each([
    ['another origin', 'https://evil.example/phish'],
    ['a protocol-relative url', '//evil.example/phish'],
    ['a javascript: url', 'javascript:alert(1)'],
    ['a data: url', 'data:text/html,hi'],
    ['an empty string', ''],
    ['a number', 42],
    ['null', null],
    ['a path of 3000 characters', `/${'a'.repeat(3000)}`],
  ])('refuses %s', (_label, input) => {
    expect(sameOriginPath(input, ORIGIN)).toBeNull();
  });
});

describe('messagePath', () => {
  const payload = (data: Record<string, string | number>) => ({
    messageId: 'm',
    data: { type: 't', badge_count: 0, ...data },
    notification: { title: 't', body: 'b' },
  });

  it("prefers the message's own path of this origin", () => {
    expect(messagePath(payload({ url: '/services', channelId: 'c1' }), ORIGIN)).toBe('/services');
  });

  it('falls back to the channel, then home, for a foreign url', () => {
    expect(messagePath(payload({ url: 'https://evil.example/', channelId: 'c 1' }), ORIGIN)).toBe(
      '/?channel=c%201',
    );
    expect(messagePath(payload({ url: 'https://evil.example/' }), ORIGIN)).toBe('/');
  });
});
