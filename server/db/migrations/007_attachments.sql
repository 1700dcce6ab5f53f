-- Files sent with messages. The bytes live in the data folder's attachments/ folder, each file
-- named by its attachment's id (never by the name a client gave it); a row here says which channel it belongs
-- to, who uploaded it, and the message that carries it (NULL between the upload and the send: such rows are
-- pruned with their file after a day).
CREATE TABLE attachments (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  uploader_id TEXT NOT NULL REFERENCES users (uid),
  message_id TEXT UNIQUE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'document')),
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX attachments_unsent ON attachments (created_at) WHERE message_id IS NULL;

-- The message's copy of its attachment (core/attachments.ts Attachment as JSON), read with the message.
ALTER TABLE messages ADD COLUMN attachment TEXT;
