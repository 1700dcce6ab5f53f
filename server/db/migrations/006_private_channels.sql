-- 005: private consultations, channels of their own kind between a consultant (the owner) and
-- one client (the one member), read and written by those two only (core/privateChannels.ts).

-- 'standard' for every channel so far. A private one keeps its pair's key (core/privateChannels.ts
-- privatePairKey: the two uids in order), unique, so that two windows opening it at once make one, and the two
-- participants' public names as they were when it was opened (JSON, by uid).
ALTER TABLE channels ADD COLUMN kind TEXT NOT NULL DEFAULT 'standard' CHECK (kind IN ('standard', 'private'));
ALTER TABLE channels ADD COLUMN pair_key TEXT;
ALTER TABLE channels ADD COLUMN names_json TEXT;
CREATE UNIQUE INDEX channels_pair_key ON channels (pair_key) WHERE pair_key IS NOT NULL;

-- An invitation "for a private consultation": accepting it opens one with its consultant (private_channel_id).
ALTER TABLE invitations ADD COLUMN private_consultation INTEGER NOT NULL DEFAULT 0
  CHECK (private_consultation IN (0, 1));
ALTER TABLE invitations ADD COLUMN private_channel_id TEXT REFERENCES channels (id) ON DELETE SET NULL;
