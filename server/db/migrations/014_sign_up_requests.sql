-- Sign-up answers the same whether the address has an account or not ("Check your inbox"), so it creates no
-- account and starts no session: a request to create one waits here until the link mailed to the address is
-- opened (server/services/signUp.ts). Until then nothing exists to sign in to, so signing in answers as for any
-- unknown address. The token is stored as its SHA-256 hash, the password as its scrypt hash; a link works once,
-- within 24 hours, and the request is deleted a week after it expired.
CREATE TABLE sign_up_requests (
  token_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  display_name TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) WITHOUT ROWID;
CREATE INDEX sign_up_requests_email ON sign_up_requests (email);
CREATE INDEX sign_up_requests_expiry ON sign_up_requests (expires_at);

-- "Someone tried to create an account with your address" goes at most once an hour to an address: looked up here.
CREATE INDEX mail_jobs_recent ON mail_jobs (kind, to_address, created_at);
