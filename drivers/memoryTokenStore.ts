// Token documents in memory behind the PushTokensPort, standing in for a backend: each save follows the backends'
// one rule (core/pushTokens.ts planTokenSave: one document per user and device, a token under one account only),
// and it counts the reads and writes a real backend would bill. Used by the push saga's tests and the push-token
// benchmark.
import { BackendError } from '../src/backend/ports';
import type { NewPushToken, PushTokensPort } from '../src/backend/ports';
import type { PushTokenDoc } from '../core/model';
import { planTokenSave } from '../core/pushTokens';

type Stored = PushTokenDoc & { uid: string };

function strip({ uid: _uid, ...doc }: Stored): PushTokenDoc {
  return doc;
}

export class MemoryTokenStore {
  readonly docs = new Map<string, Stored>();
  reads = 0;
  writes = 0;
  private nextId = 1;

  constructor(private readonly now: () => number) {}

  add(uid: string, input: NewPushToken): PushTokenDoc {
    this.writes += 1;
    const related = [...this.docs.values()].filter(
      (d) => (d.uid === uid && d.deviceId === input.deviceId) || d.token === input.token,
    );
    const plan = planTokenSave(uid, input, related);
    for (const doc of plan.remove) this.docs.delete(doc.id);
    if (plan.keep) return strip(plan.keep);
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
