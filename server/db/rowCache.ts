// Rows read on every request (the caller's account, the channel that decides access) kept in memory, and dropped
// by the database itself: temporary triggers on this connection call back into JS on every insert, update or
// delete of the tables they were read from, foreign-key cascades and statements of any repository included. A
// cached row is filled only outside a transaction (a row read inside one could still be rolled back; a trigger
// dropping a row in a transaction that rolls back drops it needlessly, never wrongly). The server is its
// database's only writer (server/db/database.ts); another connection's writes are not seen here.
import type { Db } from './database';

/** What a trigger passes back: the key of the changed row, or null for "everything of this cache". */
type Drop = (key: string | null) => void;

const DROP_FUNCTION = 'qupm_row_cache_drop';

/** The caches of one connection by name (repositories made twice over one database make two of each). */
const registries = new WeakMap<Db, Map<string, Set<Drop>>>();

function registryOf(db: Db): Map<string, Set<Drop>> {
  let registry = registries.get(db);
  if (!registry) {
    const caches = new Map<string, Set<Drop>>();
    registry = caches;
    registries.set(db, caches);
    db.function(DROP_FUNCTION, { deterministic: false, directOnly: false }, (name: unknown, key: unknown) => {
      for (const drop of caches.get(String(name)) ?? []) drop(typeof key === 'string' ? key : null);
      return null;
    });
  }
  return registry;
}

/** Which writes to a table drop which rows of a cache: the key column of the changed row, or all rows. */
export interface Watch {
  table: string;
  /** The changed row's column holding the cache's key; absent: any change drops the whole cache. */
  keyColumn?: string;
  /**
   * Instead of a column, the key as SQL over the changed row (`NEW` or `OLD`), e.g. a parent row's column; where it
   * is NULL (the parent is gone) the whole cache is dropped.
   */
  keySql?: (row: 'NEW' | 'OLD') => string;
}

/** Frozen all the way down: a cached row is shared by every request that reads it. */
function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class RowCache<V> {
  private readonly rows = new Map<string, V>();

  /**
   * `name` is the cache's word in its triggers' SQL (letters and underscores). At most `max` rows are kept; past
   * that the oldest goes.
   */
  constructor(
    private readonly db: Db,
    name: string,
    watches: readonly Watch[],
    private readonly max = 10_000,
  ) {
    if (!/^[a-z_]+$/.test(name))
      throw new Error(`A row cache's name is letters and underscores, not "${name}"`);
    const registry = registryOf(db);
    const drops = registry.get(name) ?? new Set<Drop>();
    registry.set(name, drops);
    drops.add((key) => {
      if (key === null) this.rows.clear();
      else this.rows.delete(key);
    });
    for (const { table, keyColumn, keySql } of watches) {
      const keyOf = (row: 'NEW' | 'OLD'): string =>
        keySql ? keySql(row) : keyColumn ? `${row}.${keyColumn}` : 'NULL';
      const drop = (row: 'NEW' | 'OLD'): string => `SELECT ${DROP_FUNCTION}('${name}', ${keyOf(row)});`;
      const trigger = (event: 'INSERT' | 'UPDATE' | 'DELETE', body: string): void => {
        db.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS ${name}_${table}_${event.toLowerCase()}
           AFTER ${event} ON main.${table} BEGIN ${body} END`,
        );
      };
      trigger('INSERT', drop('NEW'));
      trigger('UPDATE', `${drop('OLD')} ${drop('NEW')}`);
      trigger('DELETE', drop('OLD'));
    }
  }

  /**
   * The row under `key`: kept, or read by `read` (and kept when read outside a transaction and not null). A kept
   * row that `serves` refuses is read again and replaced.
   */
  get(key: string, read: () => V | null, serves: (kept: V) => boolean = () => true): V | null {
    const kept = this.rows.get(key);
    if (kept !== undefined && serves(kept)) return kept;
    if (kept !== undefined) this.rows.delete(key);
    const value = read();
    if (value !== null && !this.db.inTransaction) {
      if (this.rows.size >= this.max) {
        const oldest = this.rows.keys().next();
        if (!oldest.done) this.rows.delete(oldest.value);
      }
      this.rows.set(key, deepFreeze(value));
    }
    return value;
  }

  /** Rows kept now (tests). */
  get size(): number {
    return this.rows.size;
  }
}
