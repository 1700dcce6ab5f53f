// Reading a test server's mail the way a person does: take the mail from the SMTP sink, find its link
// and follow it through the API. No backdoor: an address is confirmed only by the link mailed to it.
import type { LightMyRequestResponse } from 'fastify';
import type { ReceivedMail, SmtpSink } from '../../../drivers/smtpSink';
import type { TestServer } from './testServer';

/** The next mail to `email` whose link has this path, and that link's token. */
export async function mailedToken(
  sink: SmtpSink,
  email: string,
  pathname: '/verify-email' | '/reset-password',
): Promise<{ mail: ReceivedMail; token: string }> {
  const mail = await sink.next(
    (m) => m.envelopeTo.includes(email) && m.links.some((link) => new URL(link).pathname === pathname),
  );
  const token = sink.link(mail, pathname).searchParams.get('token');
  if (!token) throw new Error(`the ${pathname} link of "${mail.subject}" carries no token`);
  return { mail, token };
}

/** Follows the confirmation link mailed to `email` (as its screen does: POST /api/auth/verify-email). */
export async function confirmByMail(
  server: TestServer,
  sink: SmtpSink,
  email: string,
): Promise<LightMyRequestResponse> {
  const { token } = await mailedToken(sink, email, '/verify-email');
  const res = await server.request('POST', '/api/auth/verify-email', { body: { token } });
  if (res.statusCode !== 200) throw new Error(`confirming ${email} failed: ${res.body}`);
  return res;
}
