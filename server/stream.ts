// Live data: POST /api/stream/ticket trades the bearer session for a single-use ticket (60 s), because
// EventSource cannot send an Authorization header and a long-lived token must not sit in a URL; then
// GET /api/stream?ticket=… is a Server-Sent Events stream of the StreamEvents the caller may see.
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { QupmError } from '../core/errors';
import type { Caller } from '../core/permissions';
import { streamQuery } from '../core/schemas';
import { STREAM_TICKET_TTL_SECONDS } from '../core/wire';
import type { StreamEvent } from '../core/wire';
import type { ServerContext } from './context';
import { parse } from './http';
import { newSecret } from './ids';

/** Comment line sent this often so proxies and browsers keep an idle stream open. */
export const STREAM_PING_MS = 25_000;
/** Open streams one user may hold (tabs and devices); more is almost surely a client bug looping. */
export const MAX_STREAMS_PER_USER = 16;
const MAX_OUTSTANDING_TICKETS = 10_000;

export class StreamTickets {
  private readonly tickets = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  issue(caller: Caller): string {
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

  /** The caller a ticket was issued to, once; null when unknown, used or expired. */
  redeem(ticket: string): Caller | null {
    const entry = this.tickets.get(ticket);
    if (!entry) return null;
    this.tickets.delete(ticket);
    return entry.expiresAt > this.now() ? entry.caller : null;
  }
}

const frame = (event: StreamEvent): string => `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

export function registerStreamRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const open = new Set<() => void>();

  app.post('/api/stream/ticket', async (request) => {
    const caller = await ctx.authenticate(request);
    await ctx.guards.documents(request, caller.uid);
    return { ticket: ctx.tickets.issue(caller) };
  });

  app.get('/api/stream', async (request, reply) => {
    const { ticket } = parse(streamQuery, request.query);
    const caller = ctx.tickets.redeem(ticket);
    if (!caller) {
      throw new QupmError(
        'UNAUTHENTICATED',
        'The stream ticket is not valid or was already used. Ask for a new one.',
      );
    }
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
    res.write(': connected\n\n');

    const unsubscribe = ctx.hub.subscribe({
      uid: caller.uid,
      email: caller.email,
      isAdmin: caller.isAdmin,
      send: (event) => {
        if (!res.writableEnded) res.write(frame(event));
      },
    });
    const ping = setInterval(() => {
      if (!res.writableEnded) res.write(': ping\n\n');
    }, ctx.streamPingMs);
    ping.unref();

    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      unsubscribe();
      open.delete(close);
      if (!res.writableEnded) res.end();
    };
    open.add(close);
    request.raw.on('close', close);
    res.on('close', close);
    res.on('error', close);
    return reply;
  });

  // Streams never go idle, so they are ended before the server waits for its connections to close.
  app.addHook('preClose', (done) => {
    for (const close of [...open]) close();
    done();
  });
}
