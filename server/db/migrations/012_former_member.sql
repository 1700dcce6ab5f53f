-- migrate: foreign keys off
-- The former member (core/leaving.ts FORMER_MEMBER_ID) is the row every departed person's messages point at
-- (messages.sender_id is a foreign key to users). Until now it was a users row like an account, created on the
-- first deletion with a reserved address: someone who signed up with that address first made every later
-- deletion fail (INSERT OR IGNORE skipped the row, then the foreign key refused the rename), and a reset mailed
-- to the address signed in as it. From here it has no address and no password (NULL, which no look-up by address
-- matches and no hash check accepts), the schema allows that to this row only and to no account, and it exists
-- from the start, so deleting an account never inserts anything.
--
-- users is rebuilt to drop the NOT NULL of email and password_hash. Whoever holds the old reserved address keeps
-- their account (it is theirs); the placeholder just no longer claims the address.
CREATE TABLE users_new (
  uid TEXT PRIMARY KEY,
  email TEXT UNIQUE,
  password_hash TEXT,
  is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  is_owner INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
  domain_id TEXT,
  nickname TEXT,
  display_name TEXT,
  notification_settings TEXT NOT NULL,
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  pass_count INTEGER NOT NULL DEFAULT 0 CHECK (pass_count >= 0),
  created_at INTEGER NOT NULL,
  email_verified_at INTEGER,
  -- Exactly one row is no account: the former member, without an address or a password.
  CHECK ((email IS NULL) = (uid = 'formerMember00000000')),
  CHECK ((password_hash IS NULL) = (uid = 'formerMember00000000'))
);

INSERT INTO users_new (uid, email, password_hash, is_admin, is_owner, domain_id, nickname, display_name,
    notification_settings, credits, pass_count, created_at, email_verified_at)
  SELECT uid, email, password_hash, is_admin, is_owner, domain_id, nickname, display_name,
    notification_settings, credits, pass_count, created_at, email_verified_at
  FROM users WHERE uid <> 'formerMember00000000';

-- The placeholder as it must be, whatever it was: a name, no role, no balance, nothing opted in.
INSERT INTO users_new (uid, email, password_hash, display_name, notification_settings, created_at)
  VALUES ('formerMember00000000', NULL, NULL, 'A former member',
    '{"enabled":false,"delivery":{"channels":[]}}', 0);

DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

-- Whatever was only the placeholder's, had anyone reached it through its old address (a reset link, a
-- session, a device, memberships, offers, counts, mutes, marks): gone, as an account's would be.
DELETE FROM email_tokens WHERE uid = 'formerMember00000000';
DELETE FROM refresh_tokens WHERE uid = 'formerMember00000000';
DELETE FROM auth_sessions WHERE uid = 'formerMember00000000';
DELETE FROM push_tokens WHERE uid = 'formerMember00000000';
DELETE FROM channel_members WHERE uid = 'formerMember00000000';
DELETE FROM offers WHERE user_id = 'formerMember00000000';
DELETE FROM pending_notifications WHERE uid = 'formerMember00000000';
DELETE FROM channel_reads WHERE uid = 'formerMember00000000';
DELETE FROM channel_mutes WHERE uid = 'formerMember00000000';
DELETE FROM missed_mail WHERE uid = 'formerMember00000000';
