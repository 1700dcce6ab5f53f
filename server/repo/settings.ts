// settings: server-wide values kept across restarts (the signing secret, when the database was created).
import type { Db } from '../db/database';

export class SettingsRepo {
  private readonly read;
  private readonly insertIfMissing;

  constructor(db: Db) {
    this.read = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.insertIfMissing = db.prepare<[string, string]>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
    );
  }

  get(key: string): string | undefined {
    return this.read.get(key)?.value;
  }

  /** Stores `value` unless `key` already has one; returns the value kept. */
  keep(key: string, value: string): string {
    this.insertIfMissing.run(key, value);
    return this.get(key) ?? value;
  }
}
