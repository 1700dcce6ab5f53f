-- 002: read markers behind the channel overview's unread counts, and the push queue.

-- When a person last read a channel: messages by others after it are unread. No row = nothing read yet.
CREATE TABLE channel_reads (
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  last_read_at INTEGER NOT NULL,
  PRIMARY KEY (uid, channel_id)
) WITHOUT ROWID;

-- Offers the consultant of a channel issued, newest first.
CREATE INDEX offers_channel ON offers (channel_id, created_at);
-- Invitations of a channel, newest first.
CREATE INDEX invitations_channel_time ON invitations (channel_id, created_at);

-- One Web Push per (message, token document), written in the transaction that stores the message and sent by
-- the queue worker (server/services/pushQueue.ts). States:
--   queued   waiting for next_attempt_at
--   sending  claimed, committed before the HTTP call; a row still 'sending' at start was cut off by a crash
--            and becomes 'abandoned', never sent again (at most once)
--   sent     the push service accepted it
--   gone     the push service answered 404/410 (the token was pruned), or the token document was gone
--   failed   every attempt failed
-- The token is looked up when the job runs, so a device signed out meanwhile gets nothing.
CREATE TABLE push_jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  uid TEXT NOT NULL,
  token_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'sending', 'sent', 'gone', 'failed', 'abandoned')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (message_id, token_id)
);
CREATE INDEX push_jobs_due ON push_jobs (state, next_attempt_at);
