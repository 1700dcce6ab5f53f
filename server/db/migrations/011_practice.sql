-- 011: the consulting practice. Services, weekly hours, bookings and the calendar cells they hold,
-- the ledger of credits and passes with the operation ids that make a repeat change nothing, offers for a
-- service, archived channels, revoked invitations, card messages and calendar mail.

-- A consultant's services (core/catalog.ts). Never deleted: bookings keep pointing at them.
CREATE TABLE services (
  id TEXT PRIMARY KEY,
  consultant_id TEXT NOT NULL REFERENCES users (uid),
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  duration_minutes INTEGER NOT NULL
    CHECK (duration_minutes BETWEEN 15 AND 480 AND duration_minutes % 15 = 0),
  price_credits INTEGER NOT NULL CHECK (price_credits BETWEEN 0 AND 1000),
  status TEXT NOT NULL CHECK (status IN ('active', 'archived')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX services_consultant ON services (consultant_id, status);

-- availability/{consultantId}: weekly hours (JSON of core/model.ts HoursInterval[]) in an IANA time zone.
CREATE TABLE availability (
  consultant_id TEXT PRIMARY KEY REFERENCES users (uid) ON DELETE CASCADE,
  time_zone TEXT NOT NULL,
  hours TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- bookings/{id} (core/bookings.ts). The service's title and length are kept as they were when it was booked.
CREATE TABLE bookings (
  id TEXT PRIMARY KEY,
  consultant_id TEXT NOT NULL REFERENCES users (uid),
  client_id TEXT NOT NULL REFERENCES users (uid),
  service_id TEXT NOT NULL REFERENCES services (id),
  service_title TEXT NOT NULL,
  duration_minutes INTEGER NOT NULL,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL CHECK (ends_at > starts_at),
  state TEXT NOT NULL CHECK (state IN ('requested', 'confirmed', 'done', 'declined', 'cancelled')),
  payment_method TEXT NOT NULL CHECK (payment_method IN ('credits', 'pass')),
  payment_amount INTEGER NOT NULL CHECK (payment_amount >= 0),
  list_price INTEGER NOT NULL CHECK (list_price >= 0),
  offer_id TEXT,
  discount_percent INTEGER,
  payment_status TEXT NOT NULL CHECK (payment_status IN ('held', 'captured', 'released', 'refunded')),
  proposal_starts_at INTEGER,
  proposal_ends_at INTEGER,
  -- The conversation its cards go to (the private consultation of the two); a deleted one is opened again.
  channel_id TEXT REFERENCES channels (id) ON DELETE SET NULL,
  client_time_zone TEXT NOT NULL,
  consultant_time_zone TEXT NOT NULL,
  sequence INTEGER NOT NULL DEFAULT 0,
  closed_reason TEXT CHECK (closed_reason IN ('declined', 'cancelled-by-client', 'cancelled-by-consultant', 'expired')),
  late_cancellation INTEGER NOT NULL DEFAULT 0 CHECK (late_cancellation IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX bookings_client ON bookings (client_id, starts_at);
CREATE INDEX bookings_consultant ON bookings (consultant_id, starts_at);
-- The expiry sweep walks the requests whose time has come.
CREATE INDEX bookings_requested ON bookings (starts_at) WHERE state = 'requested';

-- No double booking: every 15-minute cell of a consultant's calendar a booking holds (its time, and a proposed
-- time waiting for an answer) is one row, and a cell is held once. Written with the booking, in its transaction.
CREATE TABLE booking_cells (
  consultant_id TEXT NOT NULL,
  cell INTEGER NOT NULL,
  booking_id TEXT NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
  PRIMARY KEY (consultant_id, cell)
) WITHOUT ROWID;
CREATE INDEX booking_cells_booking ON booking_cells (booking_id);

-- users/{uid}/ledger/{id} (core/ledger.ts): append-only, one row per move of a balance, written in the same
-- transaction as users.credits / users.pass_count, keyed by the operation that made it. The sum of a person's
-- deltas is their balance.
CREATE TABLE ledger (
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  id TEXT NOT NULL,
  kind TEXT NOT NULL
    CHECK (kind IN ('opening', 'invitation', 'grant', 'hold', 'capture', 'release', 'refund')),
  delta_credits INTEGER NOT NULL,
  delta_passes INTEGER NOT NULL,
  amount_credits INTEGER NOT NULL CHECK (amount_credits >= 0),
  amount_passes INTEGER NOT NULL CHECK (amount_passes >= 0),
  balance_credits INTEGER NOT NULL CHECK (balance_credits >= 0),
  balance_passes INTEGER NOT NULL CHECK (balance_passes >= 0),
  booking_id TEXT,
  service_id TEXT,
  invitation_id TEXT,
  by_uid TEXT,
  note TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (uid, id)
) WITHOUT ROWID;
CREATE INDEX ledger_booking ON ledger (booking_id) WHERE booking_id IS NOT NULL;
CREATE TRIGGER ledger_append_only BEFORE UPDATE ON ledger
BEGIN
  SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- The balances from before the ledger, each as one opening entry, so that every sum equals its balance.
INSERT INTO ledger (uid, id, kind, delta_credits, delta_passes, amount_credits, amount_passes, balance_credits,
  balance_passes, created_at)
SELECT uid, 'opening', 'opening', credits, pass_count, credits, pass_count, credits, pass_count,
  CAST(strftime('%s', 'now') AS INTEGER) * 1000
FROM users
WHERE credits > 0 OR pass_count > 0;

-- operations/{id} (core/operations.ts): who did what under an operation id, and the document it made or changed.
CREATE TABLE operations (
  id TEXT PRIMARY KEY,
  uid TEXT NOT NULL,
  kind TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Offers name the service they are for and the consultant who made them (channels can now change hands).
-- Offers from before have no service: they count for any service of their channel's owner at this time.
ALTER TABLE offers ADD COLUMN service_id TEXT REFERENCES services (id);
ALTER TABLE offers ADD COLUMN consultant_id TEXT;
UPDATE offers SET consultant_id = (SELECT owner_id FROM channels WHERE channels.id = offers.channel_id);

-- An archived channel is read-only (core/housekeeping.ts).
ALTER TABLE channels ADD COLUMN archived_at INTEGER;

-- A card message (core/cards.ts), as JSON; NULL for every other message.
ALTER TABLE messages ADD COLUMN card TEXT;

-- A calendar invitation sent with a mail (core/calendar.ts): {method, content} as JSON, NULL for other mail.
ALTER TABLE mail_jobs ADD COLUMN calendar TEXT;

-- Invitations gain the status 'revoked'. SQLite cannot change a CHECK in place: the table is rebuilt with the
-- same columns and rows (nothing references it).
CREATE TABLE invitations_next (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  consultant_id TEXT NOT NULL REFERENCES users (uid),
  invitee_email TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'activated', 'expired', 'revoked')),
  passes INTEGER NOT NULL DEFAULT 0 CHECK (passes >= 0),
  credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  expires_at INTEGER NOT NULL,
  accepted_by TEXT REFERENCES users (uid),
  accepted_at INTEGER,
  activated_at INTEGER,
  created_at INTEGER NOT NULL,
  private_consultation INTEGER NOT NULL DEFAULT 0 CHECK (private_consultation IN (0, 1)),
  private_channel_id TEXT REFERENCES channels (id) ON DELETE SET NULL,
  revoked_at INTEGER,
  CHECK ((status IN ('accepted', 'activated')) = (accepted_by IS NOT NULL))
);
INSERT INTO invitations_next (id, channel_id, consultant_id, invitee_email, status, passes, credits, expires_at,
  accepted_by, accepted_at, activated_at, created_at, private_consultation, private_channel_id)
SELECT id, channel_id, consultant_id, invitee_email, status, passes, credits, expires_at, accepted_by, accepted_at,
  activated_at, created_at, private_consultation, private_channel_id
FROM invitations;
DROP TABLE invitations;
ALTER TABLE invitations_next RENAME TO invitations;
CREATE INDEX invitations_channel ON invitations (channel_id);
CREATE INDEX invitations_invitee ON invitations (invitee_email);
CREATE INDEX invitations_channel_time ON invitations (channel_id, created_at);
