// users/{uid} for a new account, with the defaults the embedded server's sign-up gives (server/repo/users.ts):
// a regular user, no balances (spec §9: credits 0, passCount 0, effectiveConId ''), notifications on.
import type { UserDoc } from '../../../core/model';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../core/model';
import type { Deps } from '../repository';

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

/** The sign-up trigger: creates the document unless it exists already (a retried event, or a callable first). */
export async function handleUserCreated({ repo }: Deps, account: NewAccount): Promise<boolean> {
  return repo.createUserIfAbsent(newUserDoc(account));
}
