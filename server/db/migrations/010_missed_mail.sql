-- Missed-message email (server/services/missedMail.ts): per person and channel, the newest
-- message an email covered (or that a mute passed over) and when the last email was sent. Written in the same
-- transaction as the mail's mail_jobs row, so a restart neither sends it again nor forgets it is due.
CREATE TABLE missed_mail (
  uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  channel_id TEXT NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  covered_at INTEGER NOT NULL,
  covered_id TEXT NOT NULL,
  last_sent_at INTEGER,
  PRIMARY KEY (uid, channel_id)
) WITHOUT ROWID;
