// A minimal EventSource for Node tests (the browser's is not in Node 20): one GET over a real socket with fetch,
// the Server-Sent Events format parsed as the browser parses it (event, data, id; comments ignored), 'open' once
// the answer starts, `onerror` when it fails or ends. It never reconnects by itself: the local adapter closes a
// failed source and opens a new one with a new ticket, as it does with the browser's.
import type { EventSourceLike } from '@/backend/local/stream';

type Listener = (event: MessageEvent<string>) => void;

export class NodeEventSource implements EventSourceLike {
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly abort = new AbortController();
  private closed = false;

  constructor(readonly url: string) {
    void this.run();
  }

  addEventListener(type: string, listener: Listener): void {
    const set = this.listeners.get(type) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(type, set);
  }

  close(): void {
    this.closed = true;
    this.abort.abort();
  }

  /** Ends the connection as a network failure would: the source reports an error. */
  fail(): void {
    if (this.closed) return;
    this.close();
    this.onerror?.(new Event('error'));
  }

  private emit(type: string, data: string, lastEventId: string): void {
    for (const listener of this.listeners.get(type) ?? []) {
      listener({ type, data, lastEventId } as MessageEvent<string>);
    }
  }

  private async run(): Promise<void> {
    try {
      const response = await fetch(this.url, {
        headers: { Accept: 'text/event-stream' },
        signal: this.abort.signal,
      });
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      this.emit('open', '', '');
      const decoder = new TextDecoder();
      let buffer = '';
      let lastEventId = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') type = value;
            else if (field === 'data') data.push(value);
            else if (field === 'id') lastEventId = value;
          }
          if (data.length > 0 && !this.closed) this.emit(type, data.join('\n'), lastEventId);
        }
      }
      throw new Error('stream ended');
    } catch {
      if (!this.closed) {
        this.closed = true;
        this.onerror?.(new Event('error'));
      }
    }
  }
}
