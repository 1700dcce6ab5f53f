// The embedded QuPM server: one Fastify instance that serves the built PWA and the API under /api, backed by
// SQLite (WAL) in a data folder, with signed sessions, the callables, and a Server-Sent Events stream.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { AccessTokens, bearerToken } from './auth/accessTokens';
import type { TokenCaller } from './auth/accessTokens';
import { DEFAULT_SCRYPT_COST, PasswordHasher } from './auth/passwords';
import { AUTH_MESSAGES, SessionService } from './auth/sessions';
import { RevokedSessions } from './auth/revokedSessions';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from '../core/attachments';
import { QupmError } from '../core/errors';
import { ATTACHMENT_QUOTA_BYTES } from '../core/attachments';
import type { ServerContext } from './context';
import { DATABASE_FILE, openDatabase, write } from './db/database';
import { GroupCommit } from './db/groupCommit';
import { describeDemo, prepareFirstStart } from './demo';
import type { DemoSummary } from './demo';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './errors';
import { EventHub } from './hub';
import { newSecret } from './ids';
import { createGuards } from './rateLimits';
import type { RateLimits } from './rateLimits';
import { createRepos } from './repo';
import { isKnownPushService } from '../core/pushTokens';
import {
  DEFAULT_VAPID_SUBJECT,
  keepVapidKeys,
  PUSH_SEND_TIMEOUT_MS,
  pruneStaleTokens,
  TOKEN_PRUNE_INTERVAL_MS,
} from './services/push';
import type { PushSettings } from './services/push';
import { DEFAULT_PUSH_CONCURRENCY, DEFAULT_RETRY, PushQueue } from './services/pushQueue';
import type { PushQueueOptions } from './services/pushQueue';
import {
  consoleTransport,
  DEFAULT_MAIL_FROM,
  parseMailFrom,
  parsePublicUrl,
  smtpTransport,
} from './services/mail';
import type { MailSettings, MailTransport } from './services/mail';
import { DEFAULT_MAIL_CONCURRENCY, DEFAULT_MAIL_RETRY, MailQueue } from './services/mailQueue';
import type { MailQueueOptions } from './services/mailQueue';
import { registerApi } from './api';
import type { RouteHandlers } from './api';
import { adminRoutes } from './routes/admin';
import { attachmentRoutes } from './routes/attachments';
import { prepareAttachmentsDir, pruneUnsentAttachments } from './services/attachments';
import { authRoutes } from './routes/auth';
import { callableRoutes } from './routes/callables';
import { channelRoutes } from './routes/channels';
import { invitationRoutes } from './routes/invitations';
import { leavingRoutes } from './routes/leaving';
import { muteRoutes } from './routes/mutes';
import { receiptRoutes } from './routes/receipts';
import { offerRoutes } from './routes/offers';
import { practiceRoutes } from './routes/practice';
import { privateChannelRoutes } from './routes/privateChannels';
import { pushRoutes } from './routes/push';
import { userRoutes } from './routes/users';
import { photoRoutes } from './routes/photos';
import { unsubscribeRoutes } from './routes/unsubscribe';
import { MissedMailScheduler, MISSED_MAIL_SCAN_MS } from './services/missedMail';
import { EXPIRY_SWEEP_MS, expireDueRequests } from './services/bookings';
import { inlineScriptHashes, inlineStyleHashes, readShell, registerStatic } from './static';
import { STREAM_PING_MS, StreamTickets, streamRoutes } from './stream';

export const DEFAULT_DATA_DIR = '.qupm-data';
/** ARCHITECTURE.md: request bodies are small JSON documents. */
export const BODY_LIMIT_BYTES = 64 * 1024;
const JWT_SECRET_SETTING = 'jwt_secret';
/** The key refresh tokens' successors are derived with (server/auth/sessions.ts), kept like the JWT secret. */
const REFRESH_SUCCESSOR_KEY_SETTING = 'refresh_successor_key';
/** Uploaded files, beside the database (server/services/attachments.ts). */
export const ATTACHMENTS_FOLDER = 'attachments';

export interface ServerOptions {
  /** The production build to serve (webpack's output). */
  staticDir: string;
  logger?: boolean;
  /** Folder of the database (created if missing); default `./.qupm-data`. */
  dataDir?: string;
  /** The database file itself, or ':memory:'; overrides dataDir. */
  db?: string;
  /**
   * Where uploaded files are kept (default: `attachments/` beside the database file; with ':memory:', a folder
   * of the system's temporary directory).
   */
  attachmentsDir?: string;
  /**
   * What one person's files may take up in all, in bytes (default QUPM_ATTACHMENT_QUOTA_MB, else core's
   * ATTACHMENT_QUOTA_BYTES, 1 GB).
   */
  attachmentQuotaBytes?: number;
  /** Create the demo world on the first start of an empty database (default true). */
  demo?: boolean;
  /** Override or switch off (false) the rate limits; tests lower them, the benchmark raises them. */
  rateLimits?: Partial<RateLimits> | false;
  /** The clock, in epoch milliseconds (tests move it to expire sessions and invitations). */
  now?: () => number;
  /** scrypt's N for new password hashes (default 2^15); tests lower it. */
  scryptCost?: number;
  /** Interval of the stream's `: ping` comment (default 25 s). */
  streamPingMs?: number;
  /**
   * Web Push: the VAPID subject, which endpoints a token may point at (default: the browsers' push services;
   * tests allow a local receiver), the send timeout, an HTTPS agent, and the push queue's retry policy and
   * concurrency (server/services/pushQueue.ts).
   */
  push?: Partial<Omit<PushSettings, 'vapid'>> & Partial<PushQueueOptions>;
  /**
   * Mail (server/services/mail.ts). Each setting defaults to its environment variable: `smtpUrl`
   * QUPM_SMTP_URL (none: mail is printed with `print`, default console.log), `from` QUPM_MAIL_FROM, `publicUrl`
   * QUPM_PUBLIC_URL (none: the listening address). `transport` replaces SMTP and the console altogether;
   * `retry` and `concurrency` tune the mail queue.
   */
  mail?: {
    smtpUrl?: string;
    from?: string;
    publicUrl?: string;
    print?: (text: string) => void;
    transport?: MailTransport;
  } & Partial<MailQueueOptions>;
  /** Missed-message email: how often its scheduler looks (default 1 min; false: never, tests). */
  missedMail?: { scanMs?: number | false };
  /**
   * Read every answer with its route's schema before it leaves, and compare its fast serialization with
   * JSON.stringify's (server/typeProvider.ts): on under Jest (NODE_ENV=test), off otherwise.
   */
  checkAnswers?: boolean;
}

/**
 * QUPM_ATTACHMENT_QUOTA_MB, an operator's quota per person in megabytes (1 to 1,048,576), or core's default. A
 * value that is not one stops the server with a sentence rather than running with no quota.
 */
function attachmentQuotaFromEnv(): number {
  const raw = process.env.QUPM_ATTACHMENT_QUOTA_MB?.trim() ?? '';
  if (raw === '') return ATTACHMENT_QUOTA_BYTES;
  const megabytes = Number(raw);
  if (!Number.isInteger(megabytes) || megabytes < 1 || megabytes > 1024 * 1024) {
    throw new Error(
      `QUPM_ATTACHMENT_QUOTA_MB must be a whole number of megabytes from 1 to 1048576, not "${raw}"`,
    );
  }
  return megabytes * 1024 * 1024;
}

/** The origin a person reaches this server at, when QUPM_PUBLIC_URL does not say: its listening address. */
function listeningOrigin(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return 'http://localhost:8080';
  const loopback = ['127.0.0.1', '::1', '::', '0.0.0.0', '::ffff:127.0.0.1'].includes(address.address);
  const host = loopback ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function mailSettings(app: FastifyInstance, options: NonNullable<ServerOptions['mail']>): MailSettings {
  const smtpUrl = options.smtpUrl ?? process.env.QUPM_SMTP_URL ?? '';
  const publicUrlRaw = options.publicUrl ?? process.env.QUPM_PUBLIC_URL ?? '';
  const publicUrl = publicUrlRaw === '' ? null : parsePublicUrl(publicUrlRaw);
  return {
    from: parseMailFrom(options.from ?? (process.env.QUPM_MAIL_FROM || DEFAULT_MAIL_FROM)),
    transport:
      options.transport ?? (smtpUrl === '' ? consoleTransport(options.print) : smtpTransport(smtpUrl)),
    publicUrl: () => publicUrl ?? listeningOrigin(app),
  };
}

/**
 * helmet's headers for these options, worked out once. @fastify/helmet ran helmet's middleware (parsing the CSP
 * directives again) in two hooks on every request, some 2% of a read's time; the headers never change.
 */
function securityHeaders(options: Parameters<typeof helmet>[0]): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(options)(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    response as unknown as Parameters<ReturnType<typeof helmet>>[1],
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return [...headers];
}

/** What main.ts prints at start. */
export interface QupmInfo {
  databaseFile: string;
  demoCreated: boolean;
  demo: DemoSummary;
  /** Live streams open right now. */
  liveStreams(): number;
  /** Live streams closed because their reader fell more than 1 MB behind, since the server started. */
  droppedStreams(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    qupm: QupmInfo;
    /** Missed-message email's scheduler (server/services/missedMail.ts); `scan()` runs one pass now. */
    missedMail: MissedMailScheduler;
    /**
     * The context every route hands its service (server/context.ts): the practice's services (bookings, the
     * ledger, services and hours, housekeeping) are called with it by the routes that wire them, and by tests
     * and drivers that exercise them in the running server until those routes exist.
     */
    qupmContext: ServerContext;
  }
}

export async function buildServer({
  staticDir,
  logger = false,
  dataDir,
  db: dbOption,
  attachmentsDir: attachmentsOption,
  attachmentQuotaBytes: attachmentQuotaOption,
  demo = true,
  rateLimits,
  now = Date.now,
  scryptCost = DEFAULT_SCRYPT_COST,
  streamPingMs = STREAM_PING_MS,
  push = {},
  mail = {},
  missedMail = {},
  checkAnswers = process.env.NODE_ENV === 'test',
}: ServerOptions): Promise<FastifyInstance> {
  // Read before anything opens: a wrong setting stops the start with a sentence.
  const attachmentQuotaBytes = attachmentQuotaOption ?? attachmentQuotaFromEnv();
  const databaseFile = dbOption ?? path.resolve(dataDir ?? DEFAULT_DATA_DIR, DATABASE_FILE);
  const db = openDatabase(databaseFile);
  const attachmentsDir =
    attachmentsOption ??
    (databaseFile === ':memory:'
      ? mkdtempSync(path.join(tmpdir(), 'qupm-attachments-'))
      : path.join(path.dirname(path.resolve(databaseFile)), ATTACHMENTS_FOLDER));
  let pushQueue: PushQueue | null = null;
  let mailQueue: MailQueue | null = null;
  let missedMailScheduler: MissedMailScheduler | null = null;
  const messageWrites = new GroupCommit(db);
  const app = Fastify({
    logger,
    trustProxy: false,
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
    clientErrorHandler,
  });
  // The push queue first (it waits for the pushes in flight, which write their outcome), then the database.
  app.addHook('onClose', async () => {
    missedMailScheduler?.close();
    await pushQueue?.close();
    await mailQueue?.close();
    messageWrites.flushNow();
    db.close();
  });

  try {
    const repos = createRepos(db);
    const passwords = new PasswordHasher(scryptCost);
    const secret = write(db, () => repos.settings.keep(JWT_SECRET_SETTING, newSecret()));
    const access = await AccessTokens.create(new Uint8Array(Buffer.from(secret, 'base64url')), now);
    const demoCreated = await prepareFirstStart(db, repos, passwords, { demo, now: now() });
    const hub = new EventHub();
    app.decorate('qupm', {
      databaseFile,
      demoCreated,
      demo: describeDemo(repos, now()),
      liveStreams: () => hub.size,
      droppedStreams: () => hub.slowReadersDropped,
    });

    // The sessions ended within an access token's lifetime, refused on every request without a
    // database read; filled from refresh_tokens now (a restart forgets nothing) and on every revocation.
    const revokedSessions = new RevokedSessions(now);
    for (const { familyId, revokedAt } of repos.sessions.revokedAfter(RevokedSessions.since(now()))) {
      revokedSessions.add(familyId, revokedAt);
    }
    const pushSettings: PushSettings = {
      vapid: keepVapidKeys(db, repos),
      subject: push.subject ?? process.env.QUPM_VAPID_SUBJECT ?? DEFAULT_VAPID_SUBJECT,
      allowEndpoint: push.allowEndpoint ?? isKnownPushService,
      timeoutMs: push.timeoutMs ?? PUSH_SEND_TIMEOUT_MS,
      ...(push.agent ? { agent: push.agent } : {}),
    };
    const queue = new PushQueue(
      { db, repos, hub, now, push: pushSettings },
      { retry: push.retry ?? DEFAULT_RETRY, concurrency: push.concurrency ?? DEFAULT_PUSH_CONCURRENCY },
    );
    pushQueue = queue;
    const mailing = mailSettings(app, mail);
    const mails = new MailQueue(
      { db, repos, now, mail: mailing },
      { retry: mail.retry ?? DEFAULT_MAIL_RETRY, concurrency: mail.concurrency ?? DEFAULT_MAIL_CONCURRENCY },
    );
    mailQueue = mails;
    prepareAttachmentsDir(attachmentsDir);
    const ctx: ServerContext = {
      db,
      repos,
      hub,
      now,
      access,
      // A session that ends (sign-out, a reused refresh token, signed out from another session, a password
      // change or reset) takes its live streams with it, and its access tokens are refused from now on.
      sessions: new SessionService(
        db,
        repos,
        passwords,
        access,
        now,
        write(db, () => repos.settings.keep(REFRESH_SUCCESSOR_KEY_SETTING, newSecret())),
        (familyId) => {
          revokedSessions.add(familyId);
          hub.endSession(familyId, 'signed-out');
        },
      ),
      guards: await createGuards(app, rateLimits),
      tickets: new StreamTickets(now),
      streamPingMs,
      attachmentsDir,
      attachmentQuotaBytes,
      push: pushSettings,
      messageWrites,
      pushQueue: queue,
      mail: mailing,
      mailQueue: mails,
      passwords,
    };
    /**
     * The caller of a request with `Authorization: Bearer <accessToken>` (with the token's session and expiry);
     * UNAUTHENTICATED otherwise. A deleted account's tokens are refused at once, not when they
     * expire; so are an ended session's. At once for a token verified lately (its answer or its error, thrown),
     * through a promise for one whose signature is still to check.
     */
    const live = (caller: TokenCaller): TokenCaller => {
      if (
        !repos.users.exists(caller.uid) ||
        (caller.sessionId !== null && revokedSessions.has(caller.sessionId))
      ) {
        throw new QupmError('UNAUTHENTICATED', AUTH_MESSAGES.sessionEnded, 'session-expired');
      }
      return caller;
    };
    const authenticate = (request: FastifyRequest): TokenCaller | Promise<TokenCaller> => {
      const token = bearerToken(request.headers.authorization);
      const known = access.remembered(token);
      return known !== null ? live(known) : access.verify(token).then(live);
    };

    const shell = readShell(staticDir);
    const security = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The shell's one inline script (showing the pre-rendered welcome) and its one inline <style> are
          // allowed by their hashes; no other inline script or style.
          scriptSrc: ["'self'", ...(shell ? inlineScriptHashes(shell) : [])],
          styleSrc: ["'self'", ...(shell ? inlineStyleHashes(shell) : [])],
          // blob: attachments, read through the API with the session and shown from memory.
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The app is served over plain HTTP on localhost by default; HSTS belongs to the TLS front.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    });
    // Every answer carries them, the live stream's raw head too (server/stream.ts keeps what is set on the raw
    // response); set here rather than in the handlers so an error's answer has them as well. API answers are
    // private and change with every write: never kept by a browser or proxy cache. Headers set on the raw
    // response are the defaults of writeHead, so a route's own (a photo's max-age, a download's CSP) still win;
    // the async onSend hook that set no-store cost every answer a promise and a turn of Fastify's hook chain.
    app.addHook('onRequest', (request, reply, done) => {
      for (const [name, value] of security) reply.raw.setHeader(name, value);
      if (request.url.startsWith('/api/')) reply.raw.setHeader('cache-control', 'no-store');
      done();
    });
    installErrorHandler(app, logger);

    app.decorate('qupmContext', ctx);
    const missed = new MissedMailScheduler(ctx, missedMail.scanMs ?? MISSED_MAIL_SCAN_MS);
    missedMailScheduler = missed;
    app.decorate('missedMail', missed);
    // Every route of core/wire.ts's table, each once: a route missing here is a type error.
    const handlers: RouteHandlers = {
      ...pushRoutes(ctx),
      ...authRoutes(ctx),
      ...userRoutes(ctx),
      ...channelRoutes(ctx),
      ...muteRoutes(ctx),
      ...receiptRoutes(ctx),
      ...attachmentRoutes(ctx),
      ...photoRoutes(ctx),
      ...invitationRoutes(ctx),
      ...offerRoutes(ctx),
      ...practiceRoutes(ctx),
      ...privateChannelRoutes(ctx),
      ...adminRoutes(ctx),
      ...callableRoutes(ctx),
      ...streamRoutes(app, ctx),
      ...leavingRoutes(ctx),
      ...unsubscribeRoutes(ctx, missed),
    };
    await registerApi(app, {
      ctx,
      handlers,
      authenticate,
      checkAnswers,
      uploadLimitBytes: ATTACHMENT_MAX_BYTES,
      uploadTooLarge: () => new QupmError('INVALID_ARGUMENT', ATTACHMENT_MESSAGES.tooLarge),
    });

    await registerStatic(app, staticDir, shell);

    // QUALITY.md: tokens unused for 30 days are pruned, at start and then every few hours, and so are push
    // jobs finished a day ago and files uploaded a day ago but never sent.
    const housekeeping = (): void => {
      pruneStaleTokens(ctx);
      queue.pruneFinished();
      mails.pruneFinished();
      pruneUnsentAttachments(ctx).catch((error: unknown) => {
        console.error('Pruning unsent attachments failed', error);
      });
    };
    housekeeping();
    const pruning = setInterval(() => {
      try {
        housekeeping();
      } catch (error) {
        console.error('Pruning unused push tokens or finished push jobs failed', error);
      }
    }, TOKEN_PRUNE_INTERVAL_MS);
    pruning.unref();
    // Requests nobody answered before their time are declined and their holds given back (core/bookings.ts
    // planExpire): at start, then every minute; the due ones are read from SQLite, so a restart misses none.
    const expireRequests = (): void => {
      try {
        expireDueRequests(ctx);
      } catch (error) {
        console.error('Expiring unanswered booking requests failed', error);
      }
    };
    expireRequests();
    const expiring = setInterval(expireRequests, EXPIRY_SWEEP_MS);
    expiring.unref();
    app.addHook('onClose', (_instance, done) => {
      clearInterval(pruning);
      clearInterval(expiring);
      done();
    });
    // Pushes a crash cut off are abandoned (never sent twice); queued ones resume.
    queue.start();
    // Mail likewise: what a crash cut off is abandoned, queued mail resumes.
    mails.start();
    // Missed-message email: what is due is read from SQLite, so a restart picks up where it stopped.
    missed.start();
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}
