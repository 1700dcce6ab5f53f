// Serves the production build: hashed assets cached for a year, the worker and the shell never cached by
// HTTP (so an update is seen on the next visit), and every other GET path answered with the shell so the
// client router can take it.
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from './errors';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const NO_CACHE = 'no-cache';
const SHORT = 'public, max-age=86400';

export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/static/')) return IMMUTABLE;
  if (urlPath === '/sw.js' || urlPath.endsWith('.html') || urlPath.endsWith('.webmanifest')) return NO_CACHE;
  if (urlPath.startsWith('/icons/')) return SHORT;
  return NO_CACHE;
}

/** SHA-256 sources of the shell's inline <style> blocks, for the Content-Security-Policy. */
export function inlineStyleHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) {
    const body = match[1] ?? '';
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/**
 * The CSP sources of the shell's inline scripts (the local build's: the one that shows the pre-rendered welcome and
 * the shell loader). Data blocks (`type="application/json"`, the loader's file list) are never run and need none.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const body = match[1] ?? '';
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/** An inline script that runs: no `src`, and no data-block type. */
export const INLINE_SCRIPT =
  /<script(?![^>]*\bsrc=)(?![^>]*\btype=["']?application\/json)[^>]*>([\s\S]*?)<\/script>/g;

export function readShell(staticDir: string): string | null {
  const file = path.join(staticDir, 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

export async function registerStatic(
  app: FastifyInstance,
  staticDir: string,
  shell: string | null,
): Promise<void> {
  await app.register(fastifyStatic, {
    root: staticDir,
    index: false,
    wildcard: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    // The build writes a .br and a .gz copy beside each text asset (webpack.config.ts PrecompressPlugin).
    preCompressed: true,
    setHeaders(res, filePath) {
      const rel =
        '/' +
        path
          .relative(staticDir, filePath)
          .split(path.sep)
          .join('/')
          .replace(/\.(br|gz)$/, '');
      res.setHeader('Cache-Control', cacheControlFor(rel));
      if (rel.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json');
    },
  });

  const sendShell = (reply: FastifyReply) =>
    reply.code(200).header('Cache-Control', NO_CACHE).type('text/html; charset=utf-8').send(shell);

  // `/` is a route of the app, not a directory listing.
  app.get('/', (_request, reply) => (shell === null ? reply.code(404).send() : sendShell(reply)));

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (
      !wantsPage ||
      url.startsWith('/api/') ||
      url === '/api' ||
      path.extname(url) !== '' ||
      shell === null
    ) {
      const shown = url.length > 80 ? `${url.slice(0, 79)}…` : url;
      return reply.code(404).send(errorBody('NOT_FOUND', `Nothing at ${shown}`));
    }
    return sendShell(reply);
  });
}
