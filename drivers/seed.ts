// A channel written straight into a fresh database, before the server opens it: a sender who owns it and many
// members, and as many messages as a long channel has. Faster than signing up thousands of people or posting
// thousands of messages through the API, which is not what the bench or a browser test measures. In drivers/
// because both use it (tests do not import the bench).
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
  /** The owner's email: SENDER_EMAIL unless a second channel in the same database needs an owner of its own. */
  ownerEmail?: string;
  members: number;
  /** The email of member `i`. */
  memberEmail(i: number): string;
  /** Anything more a member has (say, a push token), written in the same transaction. */
  withMember?(repos: Repos, uid: string, i: number, now: number): void;
  /** A history written into the channel (see MessagesSeed). */
  messages?: MessagesSeed;
}

/**
 * `count` messages, oldest first, evenly spread over the `spanMs` before `endAt`: in runs of three by one sender,
 * alternately the channel's owner and member 0 (so a list has groups and day separators to show).
 */
export interface MessagesSeed {
  count: number;
  spanMs: number;
  endAt: number;
  /** Message `i`'s time instead of the even spread (non-decreasing in `i`). */
  at?(i: number): number;
  /** Message `i`'s text (default "Message i"). */
  text?(i: number): string;
  /** The owner has read up to message `readUpTo` (what comes after it by others is unread); none by default. */
  readUpTo?: number;
}

/** The names messages carry: the owner's, and member 0's. */
export const SENDER_NAME = 'Sam Sender';
export const MEMBER_NAME = 'Mia Member';

function writeMessages(
  repos: Repos,
  channelId: string,
  owner: string,
  member: string | undefined,
  seed: MessagesSeed,
) {
  const step = seed.count > 1 ? seed.spanMs / (seed.count - 1) : 0;
  const start = seed.endAt - seed.spanMs;
  for (let i = 0; i < seed.count; i += 1) {
    const byOwner = member === undefined || Math.floor(i / 3) % 2 === 0;
    const id = newDocumentId();
    const createdAt = seed.at?.(i) ?? Math.round(start + i * step);
    repos.messages.insert({
      id,
      channelId,
      senderId: byOwner ? owner : (member ?? owner),
      senderName: byOwner ? SENDER_NAME : MEMBER_NAME,
      text: seed.text?.(i) ?? `Message ${i}`,
      createdAt,
    });
    if (i === seed.readUpTo) repos.reads.put(owner, channelId, { createdAt, id });
  }
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
      repos.users.insert({
        uid: sender,
        email: seed.ownerEmail ?? SENDER_EMAIL,
        passwordHash,
        isOwner: true,
        createdAt: now,
      });
      repos.channels.insert({
        id: channelId,
        channelId: seed.handle,
        ownerId: sender,
        title: seed.title,
        description: '',
        createdAt: now,
      });
      let firstMember: string | undefined;
      for (let i = 0; i < seed.members; i += 1) {
        const uid = newDocumentId();
        firstMember ??= uid;
        repos.users.insert({ uid, email: seed.memberEmail(i), passwordHash, createdAt: now });
        repos.channels.addMember(channelId, uid, now);
        seed.withMember?.(repos, uid, i, now);
      }
      if (seed.messages) writeMessages(repos, channelId, sender, firstMember, seed.messages);
    });
    return channelId;
  } finally {
    db.close();
  }
}
