-- Channel mutes (users/{uid}/channelPrefs on Firestore): a person's channel is muted until
-- muted_until (epoch ms; core/mutes.ts MUTED_FOREVER for "until I turn it back on"). A timed mute is never
-- deleted by a job: whether it holds is compared with the clock (core/mutes.ts isMuted); unmuting deletes the row.
CREATE TABLE channel_mutes (
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  muted_until INTEGER NOT NULL CHECK (muted_until > 0),
  PRIMARY KEY (uid, channel_id)
) WITHOUT ROWID;
