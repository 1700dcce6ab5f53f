-- 016: read receipts (core/receipts.ts): when a read mark last moved, how far each person's devices got, and who
-- shares receipts at all.

-- The time (this server's clock) the person's read mark last moved: "Seen by Dana at 10:32". NULL for marks set
-- before receipts existed.
ALTER TABLE channel_reads ADD COLUMN marked_at INTEGER;

-- A device of the person got up to this message (a page or a live batch reached it): "Delivered". Moves forward
-- only (core/channels.ts nextReadMark, in the write transaction).
CREATE TABLE channel_deliveries (
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  delivered_at INTEGER NOT NULL,
  delivered_id TEXT NOT NULL,
  PRIMARY KEY (uid, channel_id)
) WITHOUT ROWID;
CREATE INDEX channel_deliveries_channel ON channel_deliveries (channel_id);

-- The people who turned read receipts off (they share none and see none); everyone else shares them.
CREATE TABLE receipts_off (
  uid TEXT PRIMARY KEY REFERENCES users (uid) ON DELETE CASCADE,
  since INTEGER NOT NULL
) WITHOUT ROWID;
