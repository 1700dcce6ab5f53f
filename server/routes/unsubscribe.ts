// One-click unsubscribe from missed-message email (RFC 8058), no session needed (core/wire.ts `page` routes):
//   POST /api/mail/unsubscribe?token=…  body `List-Unsubscribe=One-Click` (form-encoded or multipart, as mail
//        clients send it): turns the account's 'email' delivery channel off.
//   GET  /api/mail/unsubscribe?token=…  a small page asking to confirm with a button (that POSTs). A GET never
//        unsubscribes: mail scanners follow links.
// A forged or garbled token is refused with a page saying so (400) and changes nothing: the token is read here,
// not by a schema, so that every answer is a page. Rate-limited per IP. The pages are core/missedMail.ts's, the
// same as the Firebase function's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isOneClickBody, unsubscribePage } from '../../core/missedMail';
import type { RouteHandlers } from '../api';
import type { ServerContext } from '../context';
import type { MissedMailScheduler } from '../services/missedMail';
import { unsubscribe, verifyUnsubscribeToken } from '../services/missedMail';

const answer = (reply: FastifyReply, page: { status: number; html: string }): FastifyReply =>
  reply.code(page.status).type('text/html; charset=utf-8').send(page.html);

const tokenOf = (request: FastifyRequest): unknown => (request.query as Record<string, unknown>).token;

export const unsubscribeRoutes = (ctx: ServerContext, scheduler: MissedMailScheduler) =>
  ({
    unsubscribePage: {
      handle: ({ request, reply }) => {
        const token = tokenOf(request);
        if (verifyUnsubscribeToken(scheduler.secret, token) === null) {
          return answer(reply, unsubscribePage('invalid'));
        }
        return answer(reply, unsubscribePage('ask', String(token)));
      },
    },
    unsubscribe: {
      handle: ({ request, reply }) => {
        const uid = verifyUnsubscribeToken(scheduler.secret, tokenOf(request));
        if (uid === null) return answer(reply, unsubscribePage('invalid'));
        if (!isOneClickBody(request.body)) return answer(reply, unsubscribePage('notOneClick'));
        unsubscribe(ctx, uid);
        return answer(reply, unsubscribePage('done'));
      },
    },
  }) satisfies Partial<RouteHandlers>;
