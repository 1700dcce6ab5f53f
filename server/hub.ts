// The in-process event hub behind GET /api/stream: publishers name an audience, the hub hands each event to the
// open streams of that audience only, under an id that increases for as long as the server runs (the SSE `id:`).
// It also ends every stream of a session that ended.
import type { StreamClosingReason, StreamEvent } from '../core/wire';
import { normalizeEmail } from '../core/email';

export interface Subscriber {
  uid: string;
  email: string;
  isAdmin: boolean;
  /** The session (refresh-token family) the stream was opened in; null for a token without one. */
  sessionId: string | null;
  send(event: StreamEvent, id: number): void;
  /** Ends the stream with a `closing` event. */
  end(reason: StreamClosingReason): void;
}

/** Who may see an event: these users, whoever signed in with these emails, and (for channel data) admins. */
export interface Audience {
  uids?: Iterable<string>;
  emails?: Iterable<string>;
  admins?: boolean;
}

export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private lastEventId = 0;
  /** Streams closed because their reader fell too far behind (server/stream.ts), since the server started. */
  slowReadersDropped = 0;

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

  /** The id of the next event; every frame of every stream takes one, so they only increase. */
  nextEventId(): number {
    this.lastEventId += 1;
    return this.lastEventId;
  }

  publish(audience: Audience, event: StreamEvent): void {
    if (this.subscribers.size === 0) return;
    const id = this.nextEventId();
    const uids = new Set(audience.uids ?? []);
    const emails = new Set([...(audience.emails ?? [])].map(normalizeEmail));
    // A subscriber may leave while this runs (a slow reader dropped, a token expired): deleting from a Set
    // during for…of is safe, and it is not visited again.
    for (const subscriber of this.subscribers) {
      const included =
        uids.has(subscriber.uid) ||
        emails.has(subscriber.email) ||
        (audience.admins === true && subscriber.isAdmin);
      if (!included) continue;
      try {
        subscriber.send(event, id);
      } catch {
        // A stream that broke mid-write is closed by its own close handler; the others still get the event.
      }
    }
  }

  /** Ends every stream of the session `sessionId` (signed out, or its refresh token was reused). */
  endSession(sessionId: string, reason: StreamClosingReason): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.sessionId !== sessionId) continue;
      try {
        subscriber.end(reason);
      } catch {
        // As in publish: its own close handler cleans up.
      }
    }
  }

  /** Ends every stream of the account `uid` (the account was deleted). */
  endUser(uid: string, reason: StreamClosingReason): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.uid !== uid) continue;
      try {
        subscriber.end(reason);
      } catch {
        // As in publish: its own close handler cleans up.
      }
    }
  }

  /**
   * The account `uid` has confirmed `email`: its open streams now also hear events addressed
   * to that email (a stream opened before the address was confirmed was subscribed without it).
   */
  confirmEmail(uid: string, email: string): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.uid === uid) subscriber.email = normalizeEmail(email);
    }
  }
}
