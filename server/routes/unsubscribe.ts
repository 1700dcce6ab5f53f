// One-click unsubscribe from missed-message email (issue #15 part 6, RFC 8058), no session needed:
//   POST /api/mail/unsubscribe?token=…  body `List-Unsubscribe=One-Click` (form-encoded or multipart, as mail
//        clients send it): turns the account's 'email' delivery channel off.
//   GET  /api/mail/unsubscribe?token=…  a small page asking to confirm with a button (that POSTs). A GET never
//        unsubscribes: mail scanners follow links.
// A forged or garbled token is refused with a page saying so (400) and changes nothing. Rate-limited per IP. The
// pages are core/missedMail.ts's, the same as the Firebase function's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isOneClickBody, UNSUBSCRIBE_ROUTE, unsubscribePage } from '../../core/missedMail';
import type { ServerContext } from '../context';
import type { MissedMailScheduler } from '../services/missedMail';
import { unsubscribe, verifyUnsubscribeToken } from '../services/missedMail';

const answer = (reply: FastifyReply, page: { status: number; html: string }): FastifyReply =>
  reply.code(page.status).type('text/html; charset=utf-8').send(page.html);

export async function registerUnsubscribeRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  scheduler: MissedMailScheduler,
): Promise<void> {
  const tokenOf = (request: FastifyRequest): unknown => (request.query as Record<string, unknown>).token;
  const limit = (request: FastifyRequest): Promise<void> =>
    ctx.guards.authPerIp(request, `unsubscribe:${request.ip}`);

  await app.register(async (scope) => {
    // Only these routes read forms; the rest of the API stays JSON only.
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, body),
    );

    scope.get(UNSUBSCRIBE_ROUTE, async (request, reply) => {
      await limit(request);
      const token = tokenOf(request);
      if (verifyUnsubscribeToken(scheduler.secret, token) === null) {
        return answer(reply, unsubscribePage('invalid'));
      }
      return answer(reply, unsubscribePage('ask', String(token)));
    });

    scope.post(UNSUBSCRIBE_ROUTE, async (request, reply) => {
      await limit(request);
      const uid = verifyUnsubscribeToken(scheduler.secret, tokenOf(request));
      if (uid === null) return answer(reply, unsubscribePage('invalid'));
      if (!isOneClickBody(request.body)) return answer(reply, unsubscribePage('notOneClick'));
      unsubscribe(ctx, uid);
      return answer(reply, unsubscribePage('done'));
    });
  });
}
