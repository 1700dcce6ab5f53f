// The in-process event hub behind GET /api/stream: publishers name an audience, the hub hands each event to the
// open streams of that audience only.
import type { StreamEvent } from '../core/wire';

export interface Subscriber {
  uid: string;
  email: string;
  isAdmin: boolean;
  send(event: StreamEvent): void;
}

/** Who may see an event: these users, whoever signed in with these emails, and (for channel data) admins. */
export interface Audience {
  uids?: Iterable<string>;
  emails?: Iterable<string>;
  admins?: boolean;
}

export class EventHub {
  private readonly subscribers = new Set<Subscriber>();

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
    };
  }

  countFor(uid: string): number {
    let count = 0;
    for (const subscriber of this.subscribers) if (subscriber.uid === uid) count += 1;
    return count;
  }

  get size(): number {
    return this.subscribers.size;
  }

  publish(audience: Audience, event: StreamEvent): void {
    if (this.subscribers.size === 0) return;
    const uids = new Set(audience.uids ?? []);
    const emails = new Set([...(audience.emails ?? [])].map((email) => email.toLowerCase()));
    for (const subscriber of this.subscribers) {
      const included =
        uids.has(subscriber.uid) ||
        emails.has(subscriber.email) ||
        (audience.admins === true && subscriber.isAdmin);
      if (!included) continue;
      try {
        subscriber.send(event);
      } catch {
        // A stream that broke mid-write is closed by its own close handler; the others still get the event.
      }
    }
  }
}
