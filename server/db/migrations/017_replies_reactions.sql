-- 017: replies and reactions (core/replies.ts, core/reactions.ts).
-- A reply's quote of the earlier message it answers (core/replies.ts ReplyQuote as JSON), or NULL; the quoted id
-- is kept in its own column so that deleting the original empties the snippets that quote it.
ALTER TABLE messages ADD COLUMN reply_to TEXT;
ALTER TABLE messages ADD COLUMN reply_to_id TEXT;
CREATE INDEX messages_reply_to ON messages (reply_to_id) WHERE reply_to_id IS NOT NULL;

-- One row a reactor: a person's reaction to a message is one write, however many others reacted to it.
CREATE TABLE message_reactions (
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  uid TEXT NOT NULL,
  emoji TEXT NOT NULL,
  PRIMARY KEY (message_id, uid)
) WITHOUT ROWID;
