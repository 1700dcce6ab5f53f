-- Mail, verified email addresses and the links mailed for them.

-- The mail queue (server/services/mailQueue.ts), written in the transaction of whatever caused the mail:
--   queued ──claim (committed before SMTP)──▶ sending ──▶ sent | failed
--   a row still 'sending' at the next start was cut off by a crash: 'abandoned', never sent again.
-- `headers` is a JSON object of extra headers (e.g. List-Unsubscribe), already checked for CR/LF.
CREATE TABLE mail_jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  headers TEXT NOT NULL DEFAULT '{}',
  state TEXT NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'abandoned')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX mail_jobs_due ON mail_jobs (state, next_attempt_at);

-- When the account's address was confirmed (NULL: not yet). Accounts that existed before are not confirmed:
-- nothing ever proved they own their address (the demo world's are confirmed when it is created).
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;

-- Single-use links mailed to a person, stored as SHA-256 hashes of the token: confirm an address, reset a
-- password, or confirm a new address (`email` is the address the link was sent to and proves).
CREATE TABLE email_tokens (
  token_hash TEXT PRIMARY KEY,
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify-email', 'reset-password', 'change-email')),
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) WITHOUT ROWID;
CREATE INDEX email_tokens_uid ON email_tokens (uid, purpose);
