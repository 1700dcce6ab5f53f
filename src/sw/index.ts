// QuPM's service worker: wires one module per job — lifecycle, precache, the page protocol, push display with
// the badge, and notification clicks.
import type { PrecacheEntry } from 'workbox-precaching';
import { FOREGROUND_HANDLED_WAIT_MS } from '../timings';
import { createForegroundWaits } from './foreground';
import { installLifecycle, skipWaiting } from './lifecycle';
import { createMessageListener } from './messages';
import type { MessageCounters } from './messages';
import { createMessagingState, enableMessaging } from './messaging';
import { handleNotificationClick } from './notificationClick';
import { installPrecache } from './precache';
import { createPushCounters, handlePush } from './push';
import type { WorkerScope } from './scope';
import { createSeenMessages } from './seen';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const scope = self as unknown as WorkerScope;
const counters: MessageCounters = { ignored: 0 };
const pushCounters = createPushCounters();
const messaging = createMessagingState();
const foreground = createForegroundWaits();
const seen = createSeenMessages(scope);

installLifecycle();
installPrecache(self.__WB_MANIFEST);

self.addEventListener(
  'message',
  createMessageListener(
    {
      SKIP_WAITING: () => skipWaiting(self),
      HEALTH_CHECK: (message, reply) =>
        reply({
          type: 'HEALTH_CHECK',
          timestamp: message.timestamp,
          pushes: { ...pushCounters },
          ignoredMessages: counters.ignored,
        }),
      ENABLE_MESSAGING: (message, reply) =>
        reply(enableMessaging(messaging, message, 'pushManager' in self.registration)),
      foregroundHandled: (message) => foreground.handled(message.messageId),
    },
    counters,
  ),
);

self.addEventListener('push', (event) => {
  let text: string | null;
  try {
    text = event.data ? event.data.text() : null;
  } catch {
    text = null; // undecodable data is a push without the app's shape: it still shows something
  }
  event.waitUntil(
    handlePush(
      { scope, seen, foreground, counters: pushCounters, foregroundWaitMs: FOREGROUND_HANDLED_WAIT_MS },
      text,
    ),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(handleNotificationClick(scope, event.notification));
});
