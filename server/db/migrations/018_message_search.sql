-- Message search (core/search.ts): an FTS5 index of every message's text, kept by triggers, so every write of
-- messages keeps it whatever code makes it (sends, the backend's cards, edits, deletions that clear the text, a
-- channel deleted with its messages). Words compare without case or accents (unicode61, remove_diacritics 2).
-- Each row is the message's rowid and its id: the search joins on both, so that a rowid SQLite renumbered (VACUUM
-- may, for a table without an INTEGER PRIMARY KEY) can only miss a hit, never give another message.
CREATE VIRTUAL TABLE message_search USING fts5(
  text,
  message_id UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);

INSERT INTO message_search (rowid, text, message_id)
  SELECT rowid, text, id FROM messages WHERE deleted_at IS NULL AND text != '';

CREATE TRIGGER message_search_insert AFTER INSERT ON messages WHEN NEW.text != '' BEGIN
  INSERT INTO message_search (rowid, text, message_id) VALUES (NEW.rowid, NEW.text, NEW.id);
END;

-- An edit is found by its new words only; a deletion (text '') leaves nothing to find.
CREATE TRIGGER message_search_update AFTER UPDATE OF text ON messages BEGIN
  DELETE FROM message_search WHERE rowid = OLD.rowid;
  INSERT INTO message_search (rowid, text, message_id)
    SELECT NEW.rowid, NEW.text, NEW.id WHERE NEW.text != '' AND NEW.deleted_at IS NULL;
END;

CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
  DELETE FROM message_search WHERE rowid = OLD.rowid;
END;
