// What the route modules share: the database, repositories, event hub, sessions and rate-limit guards.
import type { FastifyRequest } from 'fastify';
import type { AccessTokens, TokenCaller } from './auth/accessTokens';
import type { SessionService } from './auth/sessions';
import type { Db } from './db/database';
import type { EventHub } from './hub';
import type { Guards } from './rateLimits';
import type { Repos } from './repo';
import type { PushSettings } from './services/push';
import type { PushQueue } from './services/pushQueue';
import type { StreamTickets } from './stream';

export interface ServerContext {
  db: Db;
  repos: Repos;
  hub: EventHub;
  now: () => number;
  access: AccessTokens;
  sessions: SessionService;
  guards: Guards;
  tickets: StreamTickets;
  streamPingMs: number;
  /** The data folder's attachments/: each file named by its attachment id (server/services/attachments.ts). */
  attachmentsDir: string;
  push: PushSettings;
  /** The push queue's worker: woken after a message's jobs are committed. */
  pushQueue: Pick<PushQueue, 'wake'>;
  /**
   * The caller of a request with `Authorization: Bearer <accessToken>` (with the token's session and expiry);
   * UNAUTHENTICATED otherwise.
   */
  authenticate(request: FastifyRequest): Promise<TokenCaller>;
}
