// Clients that post to a channel over the embedded server's HTTP API, for the browser tests and the benchmark
// that need a burst from several people: each is a new account joined through an invitation of its own. A send
// carries an id of the client's and is retried under it until the server has it, so a burst that meets a server
// restart still makes each message once.
import { newDocumentId } from '@core/ids';
import { encodeCursor } from '@core/messages';
import type { ChatMessage, Invitation } from '@core/model';
import type { SessionResponse } from '@core/wire';
import { SIGN_UP_MAIL } from '../server/services/signUp';
import { mailedToken } from './mailbox';

const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function apiOf(origin: () => string) {
  return async function api<T>(method: string, url: string, token?: string, body?: unknown): Promise<T> {
    const res = await fetch(`${origin()}${url}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

export interface BurstSetup {
  consultantToken: string;
  channelId: string;
  /** Access tokens of the new clients. */
  clients: string[];
}

/**
 * A new account made as a person makes one: signed up, the link mailed to the address opened (it creates the
 * account), signed in. `dataDir` is the server's data folder, whose outbox holds the link.
 */
export async function createAccount(
  origin: () => string,
  dataDir: string,
  input: { email: string; password: string; displayName?: string },
): Promise<SessionResponse> {
  const api = apiOf(origin);
  await api('POST', '/api/auth/signup', undefined, input);
  const token = mailedToken(dataDir, input.email, SIGN_UP_MAIL.link);
  await api('POST', '/api/auth/verify-email', undefined, { token });
  return api<SessionResponse>('POST', '/api/auth/signin', undefined, {
    email: input.email,
    password: input.password,
  });
}

/**
 * `count` new clients of the demo consultant's channel titled `title`, on the server whose data folder is
 * `dataDir`.
 */
export async function joinClients(
  origin: () => string,
  dataDir: string,
  title: string,
  count: number,
): Promise<BurstSetup> {
  const api = apiOf(origin);
  const consultant = await api<SessionResponse>('POST', '/api/auth/signin', undefined, {
    email: 'consultant@qupm.demo',
    password: 'qupm-demo',
  });
  const { channels } = await api<{ channels: Array<{ id: string; title: string }> }>(
    'GET',
    '/api/channels?mine=true',
    consultant.accessToken,
  );
  const channelId = channels.find((c) => c.title === title)?.id;
  if (!channelId) throw new Error(`no channel titled ${title}`);
  const clients: string[] = [];
  for (let k = 0; k < count; k += 1) {
    const session = await createAccount(origin, dataDir, {
      email: `burst-${k}-${newDocumentId().toLowerCase()}@example.com`,
      password: 'burst-password-1',
      displayName: `Burst ${k}`,
    });
    const invitation = await api<Invitation>('POST', '/api/invitations', consultant.accessToken, {
      channelId,
      passes: 0,
      credits: 0,
      expiresAt: Date.now() + DAY,
    });
    await api('POST', `/api/invitations/${invitation.id}/accept`, session.accessToken);
    clients.push(session.accessToken);
  }
  return { consultantToken: consultant.accessToken, channelId, clients };
}

/**
 * Sends `texts` one after another as the client of `token`, each under an id of its own, retrying a message
 * (same id) until the server has it; `onSent` counts acknowledgements.
 */
export async function sendAll(
  origin: () => string,
  token: string,
  channelId: string,
  texts: string[],
  onSent: () => void = () => undefined,
  /** Bursts of this many messages back to back, with `pauseMs` between them (default: one burst). */
  pacing: { burstSize: number; pauseMs: number } = { burstSize: Number.POSITIVE_INFINITY, pauseMs: 0 },
): Promise<void> {
  const api = apiOf(origin);
  for (const [index, text] of texts.entries()) {
    if (index > 0 && index % pacing.burstSize === 0) await sleep(pacing.pauseMs);
    const message = { id: newDocumentId(), text };
    for (let attempt = 0; ; attempt += 1) {
      try {
        await api('POST', `/api/channels/${channelId}/messages`, token, message);
        onSent();
        break;
      } catch {
        await sleep(Math.min(500, 50 * (attempt + 1)));
      }
    }
  }
}

/** Every message of the channel as the server has it, oldest first (paged back with (createdAt, id) cursors). */
export async function serverMessages(
  origin: () => string,
  token: string,
  channelId: string,
): Promise<ChatMessage[]> {
  const api = apiOf(origin);
  const all: ChatMessage[] = [];
  let before: string | null = null;
  for (;;) {
    const query: string = before === null ? '?limit=100' : `?limit=100&before=${before}`;
    const { messages } = await api<{ messages: ChatMessage[] }>(
      'GET',
      `/api/channels/${channelId}/messages${query}`,
      token,
    );
    if (messages.length === 0) return all;
    all.unshift(...messages);
    before = encodeCursor(messages[0] as ChatMessage);
  }
}
