-- Sessions a person can see and end. A session is a refresh-token family (refresh_tokens
-- .family_id, the access token's `sid`); this table keeps what the list shows of it: the user agent it was
-- started with, when it started and when it was last used (moved on each refresh, not on every request). Whether
-- it still stands is refresh_tokens' word (a live, unrevoked token in the family), so every path that revokes
-- a family (sign-out, a reused refresh token, a password change or reset) takes it off the list.
CREATE TABLE auth_sessions (
  family_id TEXT PRIMARY KEY,
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  user_agent TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX auth_sessions_uid ON auth_sessions (uid);

-- The families that were signed in before this migration: their user agent is unknown ('').
INSERT INTO auth_sessions (family_id, uid, user_agent, created_at, last_used_at)
SELECT family_id, uid, '', MIN(created_at), MAX(created_at)
FROM refresh_tokens
GROUP BY family_id;

-- Which session saved a device's push token: ending the session deletes it (NULL for tokens saved before).
ALTER TABLE push_tokens ADD COLUMN session_id TEXT;
CREATE INDEX push_tokens_session ON push_tokens (session_id) WHERE session_id IS NOT NULL;

-- The families revoked lately, read at start into the in-memory set that refuses their access tokens at once.
CREATE INDEX refresh_tokens_revoked ON refresh_tokens (revoked_at) WHERE revoked_at IS NOT NULL;
