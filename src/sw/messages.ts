// Messages from pages: parsed with the shared protocol; malformed or unknown ones are ignored and counted.
import { parsePageToWorkerMessage } from '../protocol/messages';
import type { PageToWorkerMessage } from '../protocol/messages';

type Reply = (m: unknown) => void;
type Of<T extends PageToWorkerMessage['type']> = Extract<PageToWorkerMessage, { type: T }>;

export interface MessageHandlers {
  SKIP_WAITING: () => void;
  ENABLE_MESSAGING: (message: Of<'ENABLE_MESSAGING'>, reply: Reply) => void;
  HEALTH_CHECK: (message: Of<'HEALTH_CHECK'>, reply: Reply) => void;
  foregroundHandled: (message: Of<'foregroundHandled'>) => void;
}

export interface MessageCounters {
  ignored: number;
}

/** The parts of an ExtendableMessageEvent the listener reads (a structural type, so tests can build one). */
export interface IncomingMessage {
  readonly data: unknown;
  readonly ports: ReadonlyArray<{ postMessage(message: unknown): void }>;
  readonly source: { postMessage(message: unknown): void } | null;
}

export function createMessageListener(handlers: Partial<MessageHandlers>, counters: MessageCounters) {
  return (event: IncomingMessage): void => {
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
      case 'foregroundHandled':
        handlers.foregroundHandled?.(message);
        return;
    }
  };
}
