// An in-memory Cloud Firestore: documents by path, queries with Firestore's semantics (a document without a
// filtered or ordered field never matches), transactions that run one at a time (Firestore's serializable
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
  toMillis(): number {
    return this.seconds * 1000 + Math.floor(this.nanoseconds / 1e6);
  }
  toDate(): Date {
    return new Date(this.toMillis());
  }
  isEqual(other: unknown): boolean {
    return other instanceof MemTimestamp && other.toMillis() === this.toMillis();
  }
}

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
  orderBy: Array<{ field: string; direction: 'asc' | 'desc' }>;
  limit?: number;
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

const TYPE_ORDER = (value: unknown): number => {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 2;
  if (value instanceof MemTimestamp) return 3;
  if (typeof value === 'string') return 4;
  if (Array.isArray(value)) return 5;
  return 6;
};

export function compareValues(a: unknown, b: unknown): number {
  const order = TYPE_ORDER(a) - TYPE_ORDER(b);
  if (order !== 0) return order;
  if (a instanceof MemTimestamp && b instanceof MemTimestamp) return a.toMillis() - b.toMillis();
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return JSON.stringify(a).localeCompare(JSON.stringify(b));
}

const equal = (a: unknown, b: unknown): boolean =>
  TYPE_ORDER(a) === TYPE_ORDER(b) && compareValues(a, b) === 0;

function matches(data: Data, filter: Filter): boolean {
  if (!(filter.field in data)) return false;
  const value = data[filter.field];
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

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class MemoryFirestore {
  private readonly docs = new Map<string, Data>();
  private readonly listeners = new Set<(event: WriteEvent) => void>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly now: () => number = Date.now) {}

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

  private resolve(existing: Data | undefined, patch: Data): Data {
    const next: Data = { ...(existing ?? {}) };
    for (const [key, value] of Object.entries(patch)) {
      if (!isSentinel(value)) {
        next[key] = clone(value);
        continue;
      }
      switch (value.__sentinel) {
        case 'serverTimestamp':
          next[key] = MemTimestamp.fromMillis(this.now());
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
    this.docs.set(path, this.resolve(options.merge ? existing : undefined, data));
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
    this.docs.set(path, this.resolve(existing, data));
    this.emit({ type: 'update', path, data: this.get(path) });
  }

  delete(path: string): void {
    checkDocPath(path);
    if (this.docs.delete(path)) this.emit({ type: 'delete', path, data: undefined });
  }

  query(spec: QuerySpec): StoredDoc[] {
    let found: StoredDoc[] = [];
    for (const [path, data] of this.docs) {
      const parts = path.split('/');
      const parent = parts.slice(0, -1).join('/');
      const inScope =
        spec.collection !== undefined ? parent === spec.collection : parts.at(-2) === spec.collectionGroup;
      if (inScope && spec.filters.every((filter) => matches(data, filter))) {
        found.push({ path, id: parts.at(-1) ?? '', data: clone(data) });
      }
    }
    for (const { field } of spec.orderBy) found = found.filter((doc) => field in doc.data);
    const orderBy = [...spec.orderBy];
    found.sort((a, b) => {
      for (const { field, direction } of orderBy) {
        const order = compareValues(a.data[field], b.data[field]);
        if (order !== 0) return direction === 'desc' ? -order : order;
      }
      return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    });
    if (spec.startAfter) {
      const cursor = spec.startAfter;
      found = found.filter((doc) => {
        for (let i = 0; i < cursor.length; i += 1) {
          const rule = orderBy[i];
          if (!rule) break;
          const order = compareValues(doc.data[rule.field], cursor[i]);
          if (order !== 0) return rule.direction === 'desc' ? order < 0 : order > 0;
        }
        return false;
      });
    }
    return spec.limit === undefined ? found : found.slice(0, spec.limit);
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
