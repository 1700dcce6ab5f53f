-- 003: a channel's messages are ordered by (created_at, id) everywhere (core/messages.ts), and a
-- read mark names the message it reaches.

-- Pages, the newest message and unread counts walk this index with row values: (created_at, id) < (?, ?).
-- It covers what messages_channel_time served, which goes.
CREATE INDEX messages_channel_order ON messages (channel_id, created_at, id);
DROP INDEX messages_channel_time;

-- The mark is (last_read_at, last_read_id): read up to and including that message. Marks written before this
-- migration keep '' (core/channels.ts ReadMark): every message of that millisecond was read.
ALTER TABLE channel_reads ADD COLUMN last_read_id TEXT NOT NULL DEFAULT '';
