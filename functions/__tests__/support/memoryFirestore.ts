// An in-memory Cloud Firestore: documents by path, queries with Firestore's semantics (a document without a
// filtered or ordered field never matches; ties are ordered by document name in the direction of the last
// ordering; documentId() as a field), server timestamps with Firestore's microsecond precision (one commit time
// per commit, increasing within a millisecond), transactions that run one at a time (Firestore's serializable
// isolation), and write events for triggers. Both SDK fakes sit on it: adminFirestore.ts (the Admin SDK that
// functions/ uses) and the client SDK fake of the contract suite, so a document one writes the other reads.

export class MemTimestamp {
  constructor(
    readonly seconds: number,
    readonly nanoseconds: number,
  ) {}
  static fromMillis(ms: number): MemTimestamp {
    const seconds = Math.floor(ms / 1000);
    return new MemTimestamp(seconds, Math.round((ms - seconds * 1000) * 1e6));
  }
  /** Whole milliseconds, rounded down (what core/documents.ts toMillis reads). */
  toMillis(): number {
    return this.seconds * 1000 + Math.floor(this.nanoseconds / 1e6);
  }
  toDate(): Date {
    return new Date(this.toMillis());
  }
  isEqual(other: unknown): boolean {
    return (
      other instanceof MemTimestamp &&
      other.seconds === this.seconds &&
      other.nanoseconds === this.nanoseconds
    );
  }
}

/**
 * A server timestamp the client SDK has written locally and the server has not yet resolved. The client SDK
 * orders it after every Timestamp and no relational filter on a Timestamp matches it; a snapshot's data() reads it
 * as null, or as the local estimate with `{serverTimestamps: 'estimate'}`.
 */
export class PendingServerTimestamp {
  constructor(readonly localMillis: number) {}
}

/** The document-id pseudo-field (`documentId()`, `FieldPath.documentId()`): a document's id in a collection. */
export const DOCUMENT_ID = '__name__';

/** Write sentinels (FieldValue / the client's serverTimestamp() and deleteField()). */
export type Sentinel =
  | { __sentinel: 'serverTimestamp' }
  | { __sentinel: 'delete' }
  | { __sentinel: 'arrayUnion'; elements: unknown[] }
  | { __sentinel: 'increment'; by: number };

export const sentinels = {
  serverTimestamp: (): Sentinel => ({ __sentinel: 'serverTimestamp' }),
  deleteField: (): Sentinel => ({ __sentinel: 'delete' }),
  arrayUnion: (...elements: unknown[]): Sentinel => ({ __sentinel: 'arrayUnion', elements }),
  increment: (by: number): Sentinel => ({ __sentinel: 'increment', by }),
};

function isSentinel(value: unknown): value is Sentinel {
  return typeof value === 'object' && value !== null && '__sentinel' in value;
}

export type Data = Record<string, unknown>;

export class StoreError extends Error {
  constructor(
    readonly kind: 'not-found' | 'already-exists' | 'invalid-argument',
    message: string,
  ) {
    super(message);
  }
}

export interface StoredDoc {
  path: string;
  id: string;
  data: Data;
}

export type FilterOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'array-contains' | 'in';
export interface Filter {
  field: string;
  op: FilterOp;
  value: unknown;
}
export interface QuerySpec {
  /** A collection's path (documents directly in it), or… */
  collection?: string;
  /** …every collection with this id, at any depth. */
  collectionGroup?: string;
  filters: Filter[];
  /** A field or DOCUMENT_ID. */
  orderBy: Array<{ field: string; direction: 'asc' | 'desc' }>;
  limit?: number;
  /** A cursor: values of the orderBy fields in order (the document's id for DOCUMENT_ID), the first ones at least. */
  startAfter?: unknown[];
}

export interface WriteEvent {
  type: 'create' | 'update' | 'delete';
  path: string;
  data: Data | undefined;
}

/** A deep copy that keeps Timestamps as Timestamps. */
export function clone<T>(value: T): T {
  if (value instanceof MemTimestamp) return value;
  if (Array.isArray(value)) return value.map(clone) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  }
  return value;
}

function segments(path: string): string[] {
  const parts = path.split('/');
  if (parts.some((part) => part === '')) throw new StoreError('invalid-argument', `Invalid path: ${path}`);
  return parts;
}

function checkDocPath(path: string): void {
  if (segments(path).length % 2 !== 0)
    throw new StoreError('invalid-argument', `Not a document path: ${path}`);
}

// Firestore's order of value types; a pending server timestamp sits between Timestamps and strings, as in the
// client SDK's local views.
const TYPE_ORDER = (value: unknown): number => {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 2;
  if (value instanceof MemTimestamp) return 3;
  if (value instanceof PendingServerTimestamp) return 3.5;
  if (typeof value === 'string') return 4;
  if (Array.isArray(value)) return 5;
  return 6;
};

export function compareValues(a: unknown, b: unknown): number {
  const order = TYPE_ORDER(a) - TYPE_ORDER(b);
  if (order !== 0) return order;
  if (a instanceof MemTimestamp && b instanceof MemTimestamp)
    return a.seconds - b.seconds || a.nanoseconds - b.nanoseconds;
  if (a instanceof PendingServerTimestamp && b instanceof PendingServerTimestamp)
    return a.localMillis - b.localMillis;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return JSON.stringify(a).localeCompare(JSON.stringify(b));
}

const equal = (a: unknown, b: unknown): boolean =>
  TYPE_ORDER(a) === TYPE_ORDER(b) && compareValues(a, b) === 0;

/** A field of a stored document; DOCUMENT_ID is its id (its path in a collection-group query). */
function fieldOf(doc: StoredDoc, field: string, byPath: boolean): { present: boolean; value: unknown } {
  if (field === DOCUMENT_ID) return { present: true, value: byPath ? doc.path : doc.id };
  // A field path into maps ('attachment.id'), as Firestore reads one.
  let value: unknown = doc.data;
  for (const part of field.split('.')) {
    if (typeof value !== 'object' || value === null || !(part in value))
      return { present: false, value: undefined };
    value = (value as Record<string, unknown>)[part];
  }
  return { present: true, value };
}

function matches(doc: StoredDoc, filter: Filter, byPath: boolean): boolean {
  const { present, value } = fieldOf(doc, filter.field, byPath);
  if (!present) return false;
  switch (filter.op) {
    case '==':
      return equal(value, filter.value);
    case '!=':
      return !equal(value, filter.value);
    case '<':
      return TYPE_ORDER(value) === TYPE_ORDER(filter.value) && compareValues(value, filter.value) < 0;
    case '<=':
      return TYPE_ORDER(value) === TYPE_ORDER(filter.value) && compareValues(value, filter.value) <= 0;
    case '>':
      return TYPE_ORDER(value) === TYPE_ORDER(filter.value) && compareValues(value, filter.value) > 0;
    case '>=':
      return TYPE_ORDER(value) === TYPE_ORDER(filter.value) && compareValues(value, filter.value) >= 0;
    case 'array-contains':
      return Array.isArray(value) && value.some((item) => equal(item, filter.value));
    case 'in':
      return Array.isArray(filter.value) && filter.value.some((item) => equal(value, item));
  }
}

/**
 * A query over a set of documents, as Firestore answers it: filters, then the order (documents without an
 * ordered field left out; ties by document name in the direction of the last ordering), the cursor, the limit.
 */
export function runQuery(docs: readonly StoredDoc[], spec: QuerySpec): StoredDoc[] {
  const byPath = spec.collection === undefined;
  const orderBy = [...spec.orderBy];
  if (!orderBy.some((rule) => rule.field === DOCUMENT_ID)) {
    orderBy.push({ field: DOCUMENT_ID, direction: orderBy.at(-1)?.direction ?? 'asc' });
  }
  let found = docs.filter(
    (doc) =>
      spec.filters.every((filter) => matches(doc, filter, byPath)) &&
      orderBy.every(({ field }) => fieldOf(doc, field, byPath).present),
  );
  const compare = (a: StoredDoc, b: StoredDoc): number => {
    for (const { field, direction } of orderBy) {
      const order = compareValues(fieldOf(a, field, byPath).value, fieldOf(b, field, byPath).value);
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return 0;
  };
  found = [...found].sort(compare);
  if (spec.startAfter) {
    const cursor = spec.startAfter;
    found = found.filter((doc) => {
      for (let i = 0; i < cursor.length; i += 1) {
        const rule = orderBy[i];
        if (!rule) break;
        const order = compareValues(fieldOf(doc, rule.field, byPath).value, cursor[i]);
        if (order !== 0) return rule.direction === 'desc' ? order < 0 : order > 0;
      }
      return false;
    });
  }
  return spec.limit === undefined ? found : found.slice(0, spec.limit);
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class MemoryFirestore {
  private readonly docs = new Map<string, Data>();
  private readonly listeners = new Set<(event: WriteEvent) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The last commit time given out, in microseconds; the time of the commit under way, if any. */
  private lastCommitMicros = -1;
  private committing: MemTimestamp | null = null;

  constructor(readonly now: () => number = Date.now) {}

  /**
   * A commit's time, as Firestore gives it to server timestamps: the clock's millisecond with microseconds that
   * grow with each commit inside it (so commits of one millisecond are ordered by time, not by id), never past
   * the millisecond's end.
   */
  private commitTime(): MemTimestamp {
    if (this.committing) return this.committing;
    const ms = this.now();
    const base = ms * 1000;
    const last = this.lastCommitMicros;
    const micros = Math.floor(last / 1000) === ms ? Math.min(last + 1, base + 999) : base;
    this.lastCommitMicros = micros;
    const seconds = Math.floor(micros / 1e6);
    return new MemTimestamp(seconds, (micros - seconds * 1e6) * 1000);
  }

  /** Runs `work` (several writes) as one commit: every server timestamp in it has the same time. */
  atomically<T>(work: () => T): T {
    if (this.committing) return work();
    this.committing = this.commitTime();
    try {
      return work();
    } finally {
      this.committing = null;
    }
  }

  /** Firestore's auto-id shape: 20 characters of [A-Za-z0-9] (core/ids.ts). */
  newId(): string {
    let id = '';
    for (let i = 0; i < 20; i += 1) id += ID_ALPHABET[Math.floor(Math.random() * ID_ALPHABET.length)];
    return id;
  }

  get(path: string): Data | undefined {
    checkDocPath(path);
    const data = this.docs.get(path);
    return data === undefined ? undefined : clone(data);
  }

  /** Every stored document's path (for assertions). */
  paths(): string[] {
    return [...this.docs.keys()].sort();
  }

  private resolve(existing: Data | undefined, patch: Data, dotted = false): Data {
    const next: Data = { ...(existing ?? {}) };
    for (const [key, value] of Object.entries(patch)) {
      // An update reads a dotted key as a path into a map ('reactions.uid'), as Firestore does; a set does not.
      const dot = dotted ? key.indexOf('.') : -1;
      if (dot > 0) {
        const head = key.slice(0, dot);
        const inner = next[head];
        const map =
          typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Data) : {};
        next[head] = this.resolve(map, { [key.slice(dot + 1)]: value }, true);
        continue;
      }
      if (!isSentinel(value)) {
        next[key] = clone(value);
        continue;
      }
      switch (value.__sentinel) {
        case 'serverTimestamp':
          next[key] = this.commitTime();
          break;
        case 'delete':
          delete next[key];
          break;
        case 'arrayUnion': {
          const current = Array.isArray(next[key]) ? [...(next[key] as unknown[])] : [];
          for (const element of value.elements)
            if (!current.some((c) => equal(c, element))) current.push(element);
          next[key] = current;
          break;
        }
        case 'increment':
          next[key] = (typeof next[key] === 'number' ? (next[key] as number) : 0) + value.by;
          break;
      }
    }
    return next;
  }

  private emit(event: WriteEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  set(path: string, data: Data, options: { merge?: boolean } = {}): void {
    checkDocPath(path);
    const existing = this.docs.get(path);
    this.docs.set(
      path,
      this.atomically(() => this.resolve(options.merge ? existing : undefined, data)),
    );
    this.emit({ type: existing ? 'update' : 'create', path, data: this.get(path) });
  }

  create(path: string, data: Data): void {
    checkDocPath(path);
    if (this.docs.has(path)) throw new StoreError('already-exists', `Document already exists: ${path}`);
    this.set(path, data);
  }

  update(path: string, data: Data): void {
    checkDocPath(path);
    const existing = this.docs.get(path);
    if (!existing) throw new StoreError('not-found', `No document to update: ${path}`);
    this.docs.set(
      path,
      this.atomically(() => this.resolve(existing, data, true)),
    );
    this.emit({ type: 'update', path, data: this.get(path) });
  }

  delete(path: string): void {
    checkDocPath(path);
    if (this.docs.delete(path)) this.emit({ type: 'delete', path, data: undefined });
  }

  /** The stored documents in a query's scope (its collection, or its collection group), unfiltered. */
  documentsIn(scope: Pick<QuerySpec, 'collection' | 'collectionGroup'>): StoredDoc[] {
    const found: StoredDoc[] = [];
    for (const [path, data] of this.docs) {
      const parts = path.split('/');
      const parent = parts.slice(0, -1).join('/');
      const inScope =
        scope.collection !== undefined ? parent === scope.collection : parts.at(-2) === scope.collectionGroup;
      if (inScope) found.push({ path, id: parts.at(-1) ?? '', data: clone(data) });
    }
    return found;
  }

  query(spec: QuerySpec): StoredDoc[] {
    return runQuery(this.documentsIn(spec), spec);
  }

  /** Runs `work` after every transaction before it has finished: Firestore's outcome without its retries. */
  serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  onWrite(listener: (event: WriteEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
