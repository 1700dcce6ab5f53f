// The embedded server's outbox, read the way a person reads their inbox: the newest mail of a kind queued for an
// address (mail_jobs, which keeps each mail's text whether it went out over SMTP or to the console), and the token
// of the link in it. For the browser tests and the benchmark, which make accounts as people do (sign-up mails the
// link that creates the account) without an SMTP sink of their own.
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../server/db/database';

/** The token of the link in the newest `kind` mail queued for `to` by the server whose data folder is `dataDir`. */
export function mailedToken(dataDir: string, to: string, kind: string): string {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const mail = db
      .prepare<[string, string], { text_body: string }>(
        'SELECT text_body FROM mail_jobs WHERE to_address = ? AND kind = ? ORDER BY id DESC LIMIT 1',
      )
      .get(to, kind);
    const link = /https?:\/\/\S+/.exec(mail?.text_body ?? '')?.[0];
    const token = link ? new URL(link).searchParams.get('token') : null;
    if (!token) throw new Error(`no ${kind} link was mailed to ${to}`);
    return token;
  } finally {
    db.close();
  }
}
