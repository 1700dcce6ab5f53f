// The embedded QuPM server: one Fastify instance that serves the built PWA and the API under /api.
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { inlineStyleHashes, readShell, registerStatic } from './static';

export interface ServerOptions {
  /** The production build to serve (webpack's output). */
  staticDir: string;
  logger?: boolean;
}

export async function buildServer({ staticDir, logger = false }: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger, trustProxy: false, bodyLimit: 64 * 1024 });
  const shell = readShell(staticDir);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // No inline script anywhere; the shell's one inline <style> is allowed by its hash.
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", ...(shell ? inlineStyleHashes(shell) : [])],
        imgSrc: ["'self'", 'data:'],
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

  app.get('/api/health', async () => ({ status: 'ok' }));

  await registerStatic(app, staticDir, shell);
  return app;
}
