// In-memory token documents behind the PushTokensPort with the embedded server's rule (one document per user
// and device; the same token again answers the same document), counting the reads and writes a real backend
// would bill. Plain functions, no jest: the push-token benchmark runs on it too.
import { BackendError } from '@/backend/ports';
import type { NewPushToken, PushTokensPort } from '@/backend/ports';
import type { PushTokenDoc } from '@core/model';

type Stored = PushTokenDoc & { uid: string };

function strip({ uid: _uid, ...doc }: Stored): PushTokenDoc {
  return doc;
}

export class TokenStore {
  readonly docs = new Map<string, Stored>();
  reads = 0;
  writes = 0;
  private nextId = 1;

  constructor(private readonly now: () => number) {}

  add(uid: string, input: NewPushToken): PushTokenDoc {
    this.writes += 1;
    const same = [...this.docs.values()].find((d) => d.uid === uid && d.token === input.token);
    if (same && same.deviceId === input.deviceId) return strip(same);
    for (const [id, doc] of this.docs) {
      if (doc.uid === uid && (doc.deviceId === input.deviceId || doc.token === input.token))
        this.docs.delete(id);
    }
    const at = this.now();
    const id = `doc${String(this.nextId++).padStart(17, '0')}`;
    const doc: Stored = { ...input, id, status: 'active', createdAt: at, lastUsed: at, uid };
    this.docs.set(id, doc);
    return strip(doc);
  }

  of(uid: string): PushTokenDoc[] {
    return [...this.docs.values()].filter((d) => d.uid === uid).map(strip);
  }

  /** The PushTokensPort over this store. */
  port(): PushTokensPort {
    return {
      findActiveToken: async (uid, token) => {
        this.reads += 1;
        return this.of(uid).find((d) => d.token === token) ?? null;
      },
      addToken: async (uid, input) => this.add(uid, input),
      touchToken: async (uid, id) => {
        this.writes += 1;
        const doc = this.docs.get(id);
        if (!doc || doc.uid !== uid)
          throw new BackendError('NOT_FOUND', "That device isn't registered (any more).");
        doc.lastUsed = this.now();
        return strip(doc);
      },
      deleteToken: async (uid, id) => {
        this.writes += 1;
        const doc = this.docs.get(id);
        if (doc && doc.uid === uid) this.docs.delete(id);
      },
      listMyTokens: async (uid) => {
        this.reads += 1;
        return this.of(uid);
      },
    };
  }
}
