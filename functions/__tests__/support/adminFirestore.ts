// A fake of the Admin SDK's Firestore (firebase-admin/firestore) over a MemoryFirestore: the references,
// queries, snapshots, batches and transactions firestoreRepository.ts uses, with the Admin SDK's error codes
// (5 NOT_FOUND for an update of a missing document, 6 ALREADY_EXISTS for create()). Transactions read the
// store as it was and apply their writes at the end, one transaction at a time.
import type { Firestore } from 'firebase-admin/firestore';
import type { FirestoreSdk } from '../../src/firestoreRepository';
import { MemTimestamp, StoreError, sentinels } from './memoryFirestore';
import type { Data, Filter, FilterOp, MemoryFirestore, QuerySpec, StoredDoc } from './memoryFirestore';

class AdminError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function adminError(error: unknown): unknown {
  if (!(error instanceof StoreError)) return error;
  const code = error.kind === 'not-found' ? 5 : error.kind === 'already-exists' ? 6 : 3;
  return new AdminError(code, `${code} ${error.kind.toUpperCase()}: ${error.message}`);
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw adminError(error);
  }
}

class DocSnapshot {
  constructor(
    readonly ref: DocRef,
    private readonly value: Data | undefined,
  ) {}
  get id(): string {
    return this.ref.id;
  }
  get exists(): boolean {
    return this.value !== undefined;
  }
  data(): Data | undefined {
    return this.value;
  }
  get(field: string): unknown {
    return this.value?.[field];
  }
}

class QuerySnapshot {
  constructor(readonly docs: DocSnapshot[]) {}
  get empty(): boolean {
    return this.docs.length === 0;
  }
  get size(): number {
    return this.docs.length;
  }
}

class Query {
  constructor(
    protected readonly store: MemoryFirestore,
    readonly spec: QuerySpec,
  ) {}
  where(field: string, op: FilterOp, value: unknown): Query {
    const filter: Filter = { field, op, value };
    return new Query(this.store, { ...this.spec, filters: [...this.spec.filters, filter] });
  }
  orderBy(field: string, direction: 'asc' | 'desc' = 'asc'): Query {
    return new Query(this.store, { ...this.spec, orderBy: [...this.spec.orderBy, { field, direction }] });
  }
  limit(limit: number): Query {
    return new Query(this.store, { ...this.spec, limit });
  }
  startAfter(...values: unknown[]): Query {
    return new Query(this.store, { ...this.spec, startAfter: values });
  }
  /** An aggregation query (Query.count()): its snapshot's data() is {count}. */
  count(): { get(): Promise<{ data(): { count: number } }> } {
    return { get: async () => ({ data: () => ({ count: this.run().size }) }) };
  }
  run(): QuerySnapshot {
    return new QuerySnapshot(
      this.store
        .query(this.spec)
        .map((doc: StoredDoc) => new DocSnapshot(new DocRef(this.store, doc.path), doc.data)),
    );
  }
  async get(): Promise<QuerySnapshot> {
    return this.run();
  }
}

class CollRef extends Query {
  constructor(
    store: MemoryFirestore,
    readonly path: string,
  ) {
    super(store, { collection: path, filters: [], orderBy: [] });
  }
  get id(): string {
    return this.path.split('/').at(-1) ?? '';
  }
  doc(id: string = this.store.newId()): DocRef {
    return new DocRef(this.store, `${this.path}/${id}`);
  }
  async add(data: Data): Promise<DocRef> {
    const ref = this.doc();
    await ref.create(data);
    return ref;
  }
}

class DocRef {
  constructor(
    private readonly store: MemoryFirestore,
    readonly path: string,
  ) {}
  get id(): string {
    return this.path.split('/').at(-1) ?? '';
  }
  collection(id: string): CollRef {
    return new CollRef(this.store, `${this.path}/${id}`);
  }
  read(): DocSnapshot {
    return new DocSnapshot(
      this,
      guard(() => this.store.get(this.path)),
    );
  }
  async get(): Promise<DocSnapshot> {
    return this.read();
  }
  async set(data: Data, options?: { merge?: boolean }): Promise<void> {
    guard(() => this.store.set(this.path, data, options));
  }
  async create(data: Data): Promise<void> {
    guard(() => this.store.create(this.path, data));
  }
  async update(data: Data): Promise<void> {
    guard(() => this.store.update(this.path, data));
  }
  async delete(): Promise<void> {
    guard(() => this.store.delete(this.path));
  }
}

interface Write {
  kind: 'set' | 'create' | 'update' | 'delete';
  path: string;
  data?: Data;
  merge?: boolean;
}

class WriteSet {
  protected readonly writes: Write[] = [];
  constructor(protected readonly store: MemoryFirestore) {}
  set(ref: DocRef, data: Data, options?: { merge?: boolean }): this {
    this.writes.push({ kind: 'set', path: ref.path, data, merge: options?.merge === true });
    return this;
  }
  create(ref: DocRef, data: Data): this {
    this.writes.push({ kind: 'create', path: ref.path, data });
    return this;
  }
  update(ref: DocRef, data: Data): this {
    this.writes.push({ kind: 'update', path: ref.path, data });
    return this;
  }
  delete(ref: DocRef): this {
    this.writes.push({ kind: 'delete', path: ref.path });
    return this;
  }
  /** All or nothing, as the SDK commits: every precondition is checked before the first write. */
  apply(): void {
    const exists = new Set(this.store.paths());
    for (const write of this.writes) {
      if (write.kind === 'update' && !exists.has(write.path)) {
        throw adminError(new StoreError('not-found', `No document to update: ${write.path}`));
      }
      if (write.kind === 'create' && exists.has(write.path)) {
        throw adminError(new StoreError('already-exists', `Document already exists: ${write.path}`));
      }
      if (write.kind === 'delete') exists.delete(write.path);
      else exists.add(write.path);
    }
    // One commit: every server timestamp in it has the commit's time.
    this.store.atomically(() => {
      for (const write of this.writes) {
        guard(() => {
          if (write.kind === 'delete') this.store.delete(write.path);
          else if (write.kind === 'update') this.store.update(write.path, write.data ?? {});
          else this.store.set(write.path, write.data ?? {}, { merge: write.merge === true });
        });
      }
    });
  }
}

class Batch extends WriteSet {
  async commit(): Promise<void> {
    this.apply();
  }
}

class Transaction extends WriteSet {
  async get(target: DocRef | Query): Promise<DocSnapshot | QuerySnapshot> {
    if (this.writes.length > 0) throw new Error('Firestore transactions require all reads before all writes');
    return target instanceof DocRef ? target.read() : target.run();
  }
}

export interface AdminFake {
  sdk: FirestoreSdk;
  store: MemoryFirestore;
}

/** The repository's SDK edge on `store`. */
export function createAdminFirestore(store: MemoryFirestore): AdminFake {
  const db = {
    doc: (path: string) => new DocRef(store, path),
    collection: (path: string) => new CollRef(store, path),
    collectionGroup: (id: string) => new Query(store, { collectionGroup: id, filters: [], orderBy: [] }),
    batch: () => new Batch(store),
    getAll: async (...refs: DocRef[]) => refs.map((ref) => ref.read()),
    runTransaction: <T>(work: (tx: Transaction) => Promise<T>): Promise<T> =>
      store.serialize(async () => {
        const tx = new Transaction(store);
        const result = await work(tx);
        tx.apply();
        return result;
      }),
  };
  return {
    store,
    sdk: {
      db: db as unknown as Firestore,
      // The Admin SDK names deleteField() FieldValue.delete().
      fieldValue: { ...sentinels, delete: sentinels.deleteField } as unknown as FirestoreSdk['fieldValue'],
      timestampFromMillis: (ms) =>
        MemTimestamp.fromMillis(ms) as unknown as ReturnType<FirestoreSdk['timestampFromMillis']>,
    },
  };
}
