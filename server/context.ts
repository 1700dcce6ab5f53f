// What the route modules share: the database, repositories, event hub, sessions and rate-limit guards; and the
// part of it every service takes.
import type { AccessTokens } from './auth/accessTokens';
import type { PasswordHasher } from './auth/passwords';
import type { SessionService } from './auth/sessions';
import type { Db } from './db/database';
import type { GroupCommit } from './db/groupCommit';
import type { EventHub } from './hub';
import type { Guards } from './rateLimits';
import type { Repos } from './repo';
import type { PushSettings } from './services/push';
import type { PushQueue } from './services/pushQueue';
import type { MailSettings } from './services/mail';
import type { MailQueue } from './services/mailQueue';
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
  /** What one person's files may take up in all (core/attachments.ts ATTACHMENT_QUOTA_BYTES unless configured). */
  attachmentQuotaBytes: number;
  push: PushSettings;
  /** Message sends share a transaction per turn of the event loop (server/db/groupCommit.ts). */
  messageWrites: Pick<GroupCommit, 'run' | 'commits'>;
  /** The push queue's worker: woken after a message's jobs are committed. */
  pushQueue: Pick<PushQueue, 'wake'>;
  /** Mail: the sender, the transport and this server's public origin for links. */
  mail: MailSettings;
  /** The mail queue's worker: enqueueMail (server/services/mail.ts) wakes it after the transaction. */
  mailQueue: Pick<MailQueue, 'wake'>;
  /** scrypt for new password hashes (a password reset). */
  passwords: PasswordHasher;
}

/** What a service needs at least: the database and its repositories, the event hub and the clock. */
export type ServiceContext = Pick<ServerContext, 'db' | 'repos' | 'hub' | 'now'>;
