-- 004: messages are edited and deleted. A deletion clears the text (a tombstone, nothing of it
-- kept); updated_at is the version stamp of the last change (core/messages.ts versionOf), NULL for a message
-- never changed, and orders a channel's changes for a subscriber catching up after a reconnect.
ALTER TABLE messages ADD COLUMN edited_at INTEGER;
ALTER TABLE messages ADD COLUMN deleted_at INTEGER;
ALTER TABLE messages ADD COLUMN updated_at INTEGER;

-- GET /api/channels/:id/messages?changedAfter=… walks a channel's changes in (updated_at, id) order.
CREATE INDEX messages_channel_changes ON messages (channel_id, updated_at, id) WHERE updated_at IS NOT NULL;
