// Live data: POST /api/stream/ticket trades the bearer session for a single-use ticket (60 s), because
// EventSource cannot send an Authorization header and a long-lived token must not sit in a URL; then
// GET /api/stream?ticket=… is a Server-Sent Events stream of the StreamEvents the caller may see.
//
// A stream lives no longer than what opened it (QUALITY.md "Live conversation"): it ends with a `closing` event
// when its session is signed out or revoked ('signed-out') and when the access token it was opened with expires
// ('expired'), and it is destroyed without one when its reader falls more than STREAM_MAX_BUFFERED_BYTES behind,
// so a reader that stopped reading never grows the server. The client resyncs after every reconnect
// (docs/decisions/live-data.md), so a stream never replays.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { QupmError } from '../core/errors';
import { STREAM_MAX_BUFFERED_BYTES, STREAM_TICKET_TTL_SECONDS } from '../core/wire';
import type { StreamClosingReason, StreamEvent } from '../core/wire';
import type { RouteHandlers } from './api';
import type { TokenCaller } from './auth/accessTokens';
import { AUTH_MESSAGES } from './auth/sessions';
import type { ServerContext } from './context';
import { newSecret } from './ids';

/** Comment line sent this often so proxies and browsers keep an idle stream open. */
export const STREAM_PING_MS = 25_000;
/** Open streams one user may hold (tabs and devices); more is almost surely a client bug looping. */
export const MAX_STREAMS_PER_USER = 16;
const MAX_OUTSTANDING_TICKETS = 10_000;
/** setTimeout's longest delay (about 24.8 days); a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class StreamTickets {
  private readonly tickets = new Map<string, { caller: TokenCaller; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  issue(caller: TokenCaller): string {
    const now = this.now();
    for (const [ticket, entry] of this.tickets) if (entry.expiresAt <= now) this.tickets.delete(ticket);
    if (this.tickets.size >= MAX_OUTSTANDING_TICKETS) {
      // Drop the oldest (Map keeps insertion order): tickets are short-lived and cheap to ask for again.
      const oldest = this.tickets.keys().next().value;
      if (oldest !== undefined) this.tickets.delete(oldest);
    }
    const ticket = newSecret();
    this.tickets.set(ticket, { caller, expiresAt: now + STREAM_TICKET_TTL_SECONDS * 1000 });
    return ticket;
  }

  /**
   * The caller a ticket was issued to, once, with the session and token expiry it was issued under; null when
   * unknown, used or expired.
   */
  redeem(ticket: string): TokenCaller | null {
    const entry = this.tickets.get(ticket);
    if (!entry) return null;
    this.tickets.delete(ticket);
    return entry.expiresAt > this.now() ? entry.caller : null;
  }
}

const frame = (event: StreamEvent, id: number): string =>
  `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * The last event's frame: the hub hands one event (one id) to every stream of its audience in turn, and it is
 * written out once, not once a stream (10,000 streams made 10,000 copies of one message's JSON).
 */
let lastFrame: { event: StreamEvent; id: number; text: string; chunk: Buffer } | null = null;
function frameOnce(event: StreamEvent, id: number): { text: string; chunk: Buffer } {
  if (lastFrame?.event !== event || lastFrame.id !== id) {
    const text = frame(event, id);
    // As HTTP/1.1 chunked encoding sends it: its length in hex, the bytes, CRLF.
    const chunk = Buffer.from(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
    lastFrame = { event, id, text, chunk };
  }
  return lastFrame;
}

/** A session that was signed out or revoked opens no stream (its access token may not have expired yet). */
function assertSessionLive(ctx: ServerContext, caller: TokenCaller): void {
  if (caller.sessionId !== null && !ctx.sessions.isLive(caller.sessionId)) {
    throw new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.sessionEnded, 'session-expired');
  }
}

/** The ticket and the stream (core/wire.ts); `app` ends open streams before the server waits for connections. */
export function streamRoutes(app: FastifyInstance, ctx: ServerContext) {
  const open = new Set<() => void>();
  // Streams never go idle, so they are ended before the server waits for its connections to close.
  app.addHook('preClose', (done) => {
    for (const close of [...open]) close();
    done();
  });

  const handlers = {
    streamTicket: {
      handle: ({ caller }) => {
        assertSessionLive(ctx, caller);
        return { ticket: ctx.tickets.issue(caller) };
      },
    },
    stream: { handle: ({ query, request, reply }) => openStream(query.ticket, request, reply) },
  } satisfies Partial<RouteHandlers>;

  function openStream(ticket: string, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const caller = ctx.tickets.redeem(ticket);
    if (!caller) {
      throw new QupmError(
        'UNAUTHENTICATED',
        'The stream ticket is not valid or was already used. Ask for a new one.',
      );
    }
    // Again here: the session may have ended between the ticket and now, and its streams were closed then.
    assertSessionLive(ctx, caller);
    if (ctx.hub.countFor(caller.uid) >= MAX_STREAMS_PER_USER) {
      throw new QupmError('RESOURCE_EXHAUSTED', 'Too many open live connections. Close a tab and try again.');
    }

    reply.hijack();
    const res: ServerResponse = reply.raw;
    // Headers set by helmet on the raw response so far are kept by writeHead.
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });

    let closed = false;
    const ping = setInterval(() => {
      if (!expired()) write(': ping\n\n');
    }, ctx.streamPingMs);
    ping.unref();
    let expiry: NodeJS.Timeout | undefined;
    let unsubscribe = (): void => undefined;
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      clearTimeout(expiry);
      unsubscribe();
      open.delete(close);
      if (!res.writableEnded && !res.destroyed) res.end();
    };
    /** Writes unless closed; a reader now more than 1 MB behind is cut off at once (it reconnects and resyncs). */
    const write = (chunk: string): void => {
      if (closed || res.writableEnded || res.destroyed) return;
      res.write(chunk);
      if (res.writableLength > STREAM_MAX_BUFFERED_BYTES) {
        ctx.hub.slowReadersDropped += 1;
        res.destroy();
        close();
      }
    };
    /**
     * A fanned-out frame, already in chunked encoding, straight to the socket when nothing waits before it in the
     * response (the usual case): Node's chunked write per stream (its framing, a writev) was most of a fan-out's
     * cost at 10,000 streams. Otherwise (HTTP/1.0, bytes still queued in the response) as any other write.
     */
    const writeFrame = (event: StreamEvent, id: number): void => {
      const { text, chunk } = frameOnce(event, id);
      const socket = res.socket;
      if (
        closed ||
        socket === null ||
        !res.chunkedEncoding ||
        !res.headersSent ||
        res.writableLength !== socket.writableLength
      ) {
        write(text);
        return;
      }
      if (res.writableEnded || res.destroyed) return;
      socket.write(chunk);
      if (socket.writableLength > STREAM_MAX_BUFFERED_BYTES) {
        ctx.hub.slowReadersDropped += 1;
        res.destroy();
        close();
      }
    };
    const end = (reason: StreamClosingReason): void => {
      write(frame({ type: 'closing', data: { reason } }, ctx.hub.nextEventId()));
      close();
    };
    /** Ends the stream when its token has expired: checked by a timer and on every write (a moved test clock). */
    const expired = (): boolean => {
      if (ctx.now() < caller.expiresAt) return false;
      end('expired');
      return true;
    };
    const armExpiry = (): void => {
      if (closed || expired()) return;
      expiry = setTimeout(armExpiry, Math.min(caller.expiresAt - ctx.now(), MAX_TIMER_MS));
      expiry.unref();
    };

    open.add(close);
    request.raw.on('close', close);
    res.on('close', close);
    res.on('error', close);
    write(': connected\n\n');
    unsubscribe = ctx.hub.subscribe({
      uid: caller.uid,
      // Events addressed by email reach only an account that has confirmed it owns that address.
      email: ctx.repos.users.isEmailVerified(caller.uid) ? caller.email : '',
      isAdmin: caller.isAdmin,
      sessionId: caller.sessionId,
      send: (event, id) => {
        if (!expired()) writeFrame(event, id);
      },
      end,
    });
    armExpiry();
    return reply;
  }

  return handlers;
}
