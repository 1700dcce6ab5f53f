// Messages from pages: parsed with the shared protocol; malformed or unknown ones are ignored and counted.
import { parsePageToWorkerMessage } from '../protocol/messages';
import type { PageToWorkerMessage } from '../protocol/messages';

type Reply = (m: unknown) => void;

export interface MessageHandlers {
  SKIP_WAITING: () => void;
  ENABLE_MESSAGING: (
    message: Extract<PageToWorkerMessage, { type: 'ENABLE_MESSAGING' }>,
    reply: Reply,
  ) => void;
  HEALTH_CHECK: (message: Extract<PageToWorkerMessage, { type: 'HEALTH_CHECK' }>, reply: Reply) => void;
}

export interface MessageCounters {
  ignored: number;
}

export function createMessageListener(handlers: Partial<MessageHandlers>, counters: MessageCounters) {
  return (event: ExtendableMessageEvent): void => {
    const message = parsePageToWorkerMessage(event.data);
    if (message === null) {
      counters.ignored += 1;
      return;
    }
    const reply = (answer: unknown): void => {
      const port = event.ports[0];
      if (port) port.postMessage(answer);
      else if (event.source) event.source.postMessage(answer);
    };
    switch (message.type) {
      case 'SKIP_WAITING':
        handlers.SKIP_WAITING?.();
        return;
      case 'HEALTH_CHECK':
        handlers.HEALTH_CHECK?.(message, reply);
        return;
      case 'ENABLE_MESSAGING':
        handlers.ENABLE_MESSAGING?.(message, reply);
        return;
      default:
        // Handled by the messaging modules (issue #5); until then they are known but unhandled.
        return;
    }
  };
}
