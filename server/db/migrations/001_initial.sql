-- 001: the documents of ARCHITECTURE.md "Data", plus what the embedded server keeps for sessions and secrets.
-- Times are epoch milliseconds. Booleans are 0/1. Document ids are 20 characters of [A-Za-z0-9].

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- users/{uid}. Role and balance fields (is_owner, domain_id, credits, pass_count, is_admin) are written by
-- the backend only; effectiveConId is derived from channel_members when the document is read.
CREATE TABLE users (
  uid TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  is_owner INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
  domain_id TEXT,
  nickname TEXT,
  display_name TEXT,
  notification_settings TEXT NOT NULL,
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  pass_count INTEGER NOT NULL DEFAULT 0 CHECK (pass_count >= 0),
  created_at INTEGER NOT NULL
);

-- Opaque refresh tokens, stored as SHA-256 hashes. A sign-in starts a family; each refresh rotates within it.
CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL,
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated_at INTEGER,
  revoked_at INTEGER
) WITHOUT ROWID;
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_uid ON refresh_tokens (uid);

-- users/{uid}/FCMTokens: one document per (user, device), enforced here.
CREATE TABLE push_tokens (
  id TEXT PRIMARY KEY,
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  token TEXT NOT NULL,
  device_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status = 'active'),
  platform TEXT NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
  user_agent TEXT NOT NULL
);
CREATE UNIQUE INDEX push_tokens_user_device ON push_tokens (uid, device_id);
CREATE INDEX push_tokens_token ON push_tokens (token);

-- channels: `channel_id` is the public handle (spec §3 channelId), unique.
CREATE TABLE channels (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL UNIQUE,
  owner_id TEXT NOT NULL REFERENCES users (uid),
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX channels_owner ON channels (owner_id);

CREATE TABLE channel_members (
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (channel_id, uid)
) WITHOUT ROWID;
CREATE INDEX channel_members_uid ON channel_members (uid, joined_at);

-- channels/{id}/messages: plain text, with the sender's public name as it was when sent.
CREATE TABLE messages (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  sender_id TEXT NOT NULL REFERENCES users (uid),
  sender_name TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX messages_channel_time ON messages (channel_id, created_at);

CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  consultant_id TEXT NOT NULL REFERENCES users (uid),
  invitee_email TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'activated', 'expired')),
  passes INTEGER NOT NULL DEFAULT 0 CHECK (passes >= 0),
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  expires_at INTEGER NOT NULL,
  accepted_by TEXT REFERENCES users (uid),
  accepted_at INTEGER,
  activated_at INTEGER,
  created_at INTEGER NOT NULL,
  CHECK ((status IN ('accepted', 'activated')) = (accepted_by IS NOT NULL))
);
CREATE INDEX invitations_channel ON invitations (channel_id);
CREATE INDEX invitations_invitee ON invitations (invitee_email);

CREATE TABLE offers (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  discount_percent INTEGER NOT NULL CHECK (discount_percent BETWEEN 1 AND 100),
  source TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'used', 'revoked')),
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX offers_user ON offers (user_id, expires_at);

-- users/{uid}/pending: pending notification counts by source (a channel id), summed into badge_count.
CREATE TABLE pending_notifications (
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  source TEXT NOT NULL,
  count INTEGER NOT NULL CHECK (count >= 0),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (uid, source)
) WITHOUT ROWID;
