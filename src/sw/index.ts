// QuPM's service worker: wires one module per job. Push display, badge and health join here in their own modules.
import type { PrecacheEntry } from 'workbox-precaching';
import { installLifecycle, skipWaiting } from './lifecycle';
import { createMessageListener } from './messages';
import type { MessageCounters } from './messages';
import { createMessagingState, enableMessaging } from './messaging';
import { installPrecache } from './precache';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const counters: MessageCounters = { ignored: 0 };
const messaging = createMessagingState();

installLifecycle();
installPrecache(self.__WB_MANIFEST);

self.addEventListener(
  'message',
  createMessageListener(
    {
      SKIP_WAITING: () => skipWaiting(self),
      HEALTH_CHECK: (message, reply) => reply({ type: 'HEALTH_CHECK', timestamp: message.timestamp }),
      ENABLE_MESSAGING: (message, reply) =>
        reply(enableMessaging(messaging, message, 'pushManager' in self.registration)),
    },
    counters,
  ),
);
