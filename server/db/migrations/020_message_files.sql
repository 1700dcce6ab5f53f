-- A message carries up to 10 files (core/attachments.ts ATTACHMENT_COUNT_MAX): several attachments rows name the
-- same message, so message_id is no longer UNIQUE (SQLite cannot drop a constraint in place: the table is rebuilt;
-- no table refers to it). A claim stays once-only: it sets message_id only where it is NULL.
-- messages.attachment now holds a JSON array of the message's files; a message from before holds one object,
-- which server/repo/messages.ts reads as a list of one.
CREATE TABLE attachments_new (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  uploader_id TEXT NOT NULL REFERENCES users (uid),
  message_id TEXT,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'document')),
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  created_at INTEGER NOT NULL
);
INSERT INTO attachments_new
  SELECT id, channel_id, uploader_id, message_id, name, kind, content_type, size, width, height, created_at
  FROM attachments;
DROP TABLE attachments;
ALTER TABLE attachments_new RENAME TO attachments;
CREATE INDEX attachments_unsent ON attachments (created_at) WHERE message_id IS NULL;
CREATE INDEX attachments_uploader ON attachments (uploader_id);
CREATE INDEX attachments_message ON attachments (message_id) WHERE message_id IS NOT NULL;
