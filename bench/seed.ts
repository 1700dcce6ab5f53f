// A channel written straight into a fresh database, before the server opens it: a sender who owns it and many
// members. Faster than signing up thousands of people through the API, which is not what the bench measures.
import path from 'node:path';
import { PasswordHasher } from '../server/auth/passwords';
import { DATABASE_FILE, openDatabase, write } from '../server/db/database';
import { newDocumentId } from '../server/ids';
import { createRepos } from '../server/repo';
import type { Repos } from '../server/repo';

export const SENDER_EMAIL = 'sender@bench.qupm';
/** Everyone's password (the sender's and every member's). */
export const BENCH_PASSWORD = 'bench-password-1';

export interface ChannelSeed {
  /** The channel's handle and title. */
  handle: string;
  title: string;
  members: number;
  /** The email of member `i`. */
  memberEmail(i: number): string;
  /** Anything more a member has (say, a push token), written in the same transaction. */
  withMember?(repos: Repos, uid: string, i: number, now: number): void;
}

/** Seeds `dataDir`'s database and answers the channel's id. */
export async function seedChannel(dataDir: string, seed: ChannelSeed): Promise<string> {
  const db = openDatabase(path.join(dataDir, DATABASE_FILE));
  try {
    const repos = createRepos(db);
    // A low cost: seeding hashes once, and a bench signs in as few people as it needs.
    const passwordHash = await new PasswordHasher(2 ** 4).hash(BENCH_PASSWORD);
    const now = Date.now();
    const sender = newDocumentId();
    const channelId = newDocumentId();
    write(db, () => {
      repos.users.insert({ uid: sender, email: SENDER_EMAIL, passwordHash, isOwner: true, createdAt: now });
      repos.channels.insert({
        id: channelId,
        channelId: seed.handle,
        ownerId: sender,
        title: seed.title,
        description: '',
        createdAt: now,
      });
      for (let i = 0; i < seed.members; i += 1) {
        const uid = newDocumentId();
        repos.users.insert({ uid, email: seed.memberEmail(i), passwordHash, createdAt: now });
        repos.channels.addMember(channelId, uid, now);
        seed.withMember?.(repos, uid, i, now);
      }
    });
    return channelId;
  } finally {
    db.close();
  }
}
