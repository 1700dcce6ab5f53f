// users/{uid} for a new account, with the defaults the embedded server's sign-up gives (server/repo/users.ts):
// a regular user, no balances (spec §9: credits 0, passCount 0, effectiveConId ''), notifications on.
import type { UserDoc } from '../../../core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../core/model';
import { FORMER_MEMBER_ID } from '../../../core/leaving';
import type { Deps } from '../repository';
import { isPhotoURL } from '../../../core/photos';
import { isPrivateChannel } from '../../../core/privateChannels';
import { publicName } from '../../../core/users';

export interface NewAccount {
  uid: string;
  email?: string | null;
  displayName?: string | null;
}

export function newUserDoc(account: NewAccount): UserDoc {
  const user: UserDoc = {
    uid: account.uid,
    email: account.email ?? '',
    isOwner: false,
    notificationSettings: {
      enabled: DEFAULT_NOTIFICATION_SETTINGS.enabled,
      delivery: { channels: [...DEFAULT_NOTIFICATION_SETTINGS.delivery.channels] },
    },
    credits: 0,
    passCount: 0,
    effectiveConId: '',
  };
  const displayName = account.displayName?.trim();
  if (displayName) user.displayName = displayName;
  return user;
}

/**
 * The sign-up trigger: creates the document unless it exists already (a retried event, or a callable first).
 * The account is read again, because the client names it (updateProfile) just after creating it, and the
 * event carries the account as it was created.
 */
export async function handleUserCreated({ repo, accounts }: Deps, event: NewAccount): Promise<boolean> {
  // The former member's uid names everyone who left (core/leaving.ts); an account under it (only the Admin SDK
  // can choose a uid) would own their messages, so it gets no document and is deleted.
  if (event.uid === FORMER_MEMBER_ID) {
    await accounts.deleteAccount(event.uid);
    return false;
  }
  const now = await accounts.lookup(event.uid);
  return repo.createUserIfAbsent(
    newUserDoc({
      uid: event.uid,
      email: now?.email ?? event.email ?? null,
      displayName: now?.displayName ?? event.displayName ?? null,
    }),
  );
}

/**
 * A person's picture changed (users/{uid}.photoURL, core/photos.ts): each channel they own or are in carries the
 * new one (channels/{id}.photos), so every member's window shows it through the channel it follows. A URL that is
 * not a face (the rules let none through) counts as none. Answers how many channels changed.
 */
export async function handlePhotoChanged(
  { repo }: Deps,
  event: { uid: string; before: unknown; after: unknown },
): Promise<number> {
  const before = isPhotoURL(event.before) ? event.before : null;
  const after = isPhotoURL(event.after) ? event.after : null;
  if (before === after) return 0;
  const channels = await repo.listChannelsFor(event.uid);
  const stale = channels.filter((channel) => (channel.photos?.[event.uid] ?? null) !== after);
  await Promise.all(stale.map((channel) => repo.setChannelPhoto(channel.id, event.uid, after)));
  return stale.length;
}

/** The name a users/{uid} document shows others (core/users.ts publicName), from an event's loose data. */
function nameOf(data: Record<string, unknown> | undefined): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return publicName({
    nickname: text(data?.nickname),
    displayName: text(data?.displayName),
    email: text(data?.email) ?? '',
  });
}

/**
 * A person's public name changed (nickname, displayName or email, core/users.ts publicName): each private
 * consultation they are one of the two of stores it (channels/{id}.names and title), so the other person's list,
 * which follows the channel live, shows the name they go by now; so does each of their bookings (clientName or
 * consultantName). Answers how many channels and bookings changed.
 */
export async function handleNameChanged(
  { repo, practice }: Deps,
  event: { uid: string; before: Record<string, unknown> | undefined; after: Record<string, unknown> },
): Promise<number> {
  const name = nameOf(event.after);
  if (event.before && nameOf(event.before) === name) return 0;
  const channels = (await repo.listChannelsFor(event.uid)).filter(
    (channel) => isPrivateChannel(channel) && channel.names?.[event.uid] !== name,
  );
  const [changed, bookings] = await Promise.all([
    Promise.all(channels.map((c) => repo.renamePrivateChannel(c.id, event.uid, name))),
    // Their bookings name them too (a consultant's list tells two clients' requests apart by it).
    name === '' ? 0 : practice.renameInBookings(event.uid, name),
  ]);
  return changed.filter(Boolean).length + bookings;
}
