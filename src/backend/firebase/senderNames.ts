// The names shown beside people's messages, as last read from their users/{uid} documents: kept by the users port
// (on the first screen) and read by the messages port (loaded later: laterPorts.ts).
import type { UserDoc } from '@core/model';
import { publicName } from '@core/users';

export interface SenderNames {
  remember(user: UserDoc): void;
  nameOf(uid: string): string | undefined;
  forget(uid: string): void;
}

/** The name shown beside a person's messages (core/users.ts publicName), as last read from users/{uid}. */
export function createSenderNames(): SenderNames {
  const names = new Map<string, string>();
  return {
    remember(user) {
      const name = publicName(user);
      if (name) names.set(user.uid, name);
    },
    nameOf: (uid) => names.get(uid),
    forget: (uid) => void names.delete(uid),
  };
}
