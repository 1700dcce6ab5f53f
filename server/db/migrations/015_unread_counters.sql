-- The overview's unread counts, kept instead of counted (a COUNT over every message after a read mark grew with
-- the channel). Kept by triggers, so every write of messages or marks keeps them, whatever code makes it (sends,
-- the backend's cards, edits, deletes, leaving's rewrite of a sender, a channel deleted with its messages).

-- Messages per channel and sender; sender '' is the channel's total. No mark: unread = total - the person's own.
CREATE TABLE message_counts (
  channel_id TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (channel_id, sender_id)
) WITHOUT ROWID;

INSERT INTO message_counts (channel_id, sender_id, n)
  SELECT channel_id, '', COUNT(*) FROM messages GROUP BY channel_id;
INSERT INTO message_counts (channel_id, sender_id, n)
  SELECT channel_id, sender_id, COUNT(*) FROM messages GROUP BY channel_id, sender_id;

-- With a mark: the messages by others after it (core/channels.ts isUnread: a mark of a whole millisecond, id '',
-- covers every message of it; a mark of a message covers what sorts up to it).
ALTER TABLE channel_reads ADD COLUMN unread INTEGER NOT NULL DEFAULT 0;
CREATE INDEX channel_reads_channel ON channel_reads (channel_id);

UPDATE channel_reads SET unread =
  (SELECT COUNT(*) FROM messages m WHERE m.channel_id = channel_reads.channel_id
     AND m.sender_id != channel_reads.uid AND m.created_at > channel_reads.last_read_at)
  + (SELECT COUNT(*) FROM messages m WHERE m.channel_id = channel_reads.channel_id
     AND m.sender_id != channel_reads.uid AND channel_reads.last_read_id != ''
     AND m.created_at = channel_reads.last_read_at AND m.id > channel_reads.last_read_id);

CREATE TRIGGER message_counts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO message_counts (channel_id, sender_id, n) VALUES (NEW.channel_id, '', 1)
    ON CONFLICT (channel_id, sender_id) DO UPDATE SET n = n + 1;
  INSERT INTO message_counts (channel_id, sender_id, n) VALUES (NEW.channel_id, NEW.sender_id, 1)
    ON CONFLICT (channel_id, sender_id) DO UPDATE SET n = n + 1;
  UPDATE channel_reads SET unread = unread + 1
    WHERE channel_id = NEW.channel_id AND uid != NEW.sender_id
      AND (NEW.created_at > last_read_at
        OR (last_read_id != '' AND NEW.created_at = last_read_at AND NEW.id > last_read_id));
END;

CREATE TRIGGER message_counts_delete AFTER DELETE ON messages BEGIN
  UPDATE message_counts SET n = n - 1
    WHERE channel_id = OLD.channel_id AND sender_id IN ('', OLD.sender_id);
  UPDATE channel_reads SET unread = unread - 1
    WHERE channel_id = OLD.channel_id AND uid != OLD.sender_id
      AND (OLD.created_at > last_read_at
        OR (last_read_id != '' AND OLD.created_at = last_read_at AND OLD.id > last_read_id));
END;

-- Leaving gives a person's messages to the former member: counted out as the old row, in as the new one.
CREATE TRIGGER message_counts_update AFTER UPDATE OF id, channel_id, sender_id, created_at ON messages BEGIN
  UPDATE message_counts SET n = n - 1
    WHERE channel_id = OLD.channel_id AND sender_id IN ('', OLD.sender_id);
  UPDATE channel_reads SET unread = unread - 1
    WHERE channel_id = OLD.channel_id AND uid != OLD.sender_id
      AND (OLD.created_at > last_read_at
        OR (last_read_id != '' AND OLD.created_at = last_read_at AND OLD.id > last_read_id));
  INSERT INTO message_counts (channel_id, sender_id, n) VALUES (NEW.channel_id, '', 1)
    ON CONFLICT (channel_id, sender_id) DO UPDATE SET n = n + 1;
  INSERT INTO message_counts (channel_id, sender_id, n) VALUES (NEW.channel_id, NEW.sender_id, 1)
    ON CONFLICT (channel_id, sender_id) DO UPDATE SET n = n + 1;
  UPDATE channel_reads SET unread = unread + 1
    WHERE channel_id = NEW.channel_id AND uid != NEW.sender_id
      AND (NEW.created_at > last_read_at
        OR (last_read_id != '' AND NEW.created_at = last_read_at AND NEW.id > last_read_id));
END;

-- A mark set or moved counts what is after it once: the messages after a mark (few, as a person reads), not the
-- channel.
CREATE TRIGGER channel_reads_insert AFTER INSERT ON channel_reads BEGIN
  UPDATE channel_reads SET unread =
    (SELECT COUNT(*) FROM messages m WHERE m.channel_id = NEW.channel_id
       AND m.sender_id != NEW.uid AND m.created_at > NEW.last_read_at)
    + (SELECT COUNT(*) FROM messages m WHERE m.channel_id = NEW.channel_id
       AND m.sender_id != NEW.uid AND NEW.last_read_id != ''
       AND m.created_at = NEW.last_read_at AND m.id > NEW.last_read_id)
    WHERE uid = NEW.uid AND channel_id = NEW.channel_id;
END;

CREATE TRIGGER channel_reads_move AFTER UPDATE OF uid, channel_id, last_read_at, last_read_id ON channel_reads BEGIN
  UPDATE channel_reads SET unread =
    (SELECT COUNT(*) FROM messages m WHERE m.channel_id = NEW.channel_id
       AND m.sender_id != NEW.uid AND m.created_at > NEW.last_read_at)
    + (SELECT COUNT(*) FROM messages m WHERE m.channel_id = NEW.channel_id
       AND m.sender_id != NEW.uid AND NEW.last_read_id != ''
       AND m.created_at = NEW.last_read_at AND m.id > NEW.last_read_id)
    WHERE uid = NEW.uid AND channel_id = NEW.channel_id;
END;

-- A deleted channel's messages were counted out one by one (ON DELETE CASCADE fires the delete trigger); its rows
-- go with it.
CREATE TRIGGER message_counts_channel_delete AFTER DELETE ON channels BEGIN
  DELETE FROM message_counts WHERE channel_id = OLD.id;
END;
