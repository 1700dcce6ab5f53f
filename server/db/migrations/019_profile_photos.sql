-- Profile pictures (core/photos.ts): one a person, its bytes here (at most 512 KB, a 256 px WebP is about 20 KB),
-- so a face is written, replaced and removed in one transaction with nothing left in the data folder. The id is
-- new with every upload: it is the face's version in its URL (/api/photos/:id), cached for good by browsers.
CREATE TABLE photos (
  uid TEXT PRIMARY KEY REFERENCES users (uid) ON DELETE CASCADE,
  id TEXT NOT NULL UNIQUE,
  content_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
