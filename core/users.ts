// Derived fields of a user (ARCHITECTURE.md "Meanings the spec leaves open").

/** A channel the user joined, as far as effectiveConId needs it. */
export interface JoinedChannel {
  ownerId: string;
  joinedAt: number;
}

/**
 * effectiveConId: a consultant's own uid; for a user the consultant of the channel they joined (the first one,
 * when they joined several); otherwise '' (spec §9: default '').
 */
export function effectiveConId(
  user: { uid: string; isOwner: boolean },
  joined: readonly JoinedChannel[],
): string {
  if (user.isOwner) return user.uid;
  let first: JoinedChannel | undefined;
  for (const channel of joined) {
    if (channel.ownerId === user.uid || channel.ownerId === '') continue;
    if (!first || channel.joinedAt < first.joinedAt) first = channel;
  }
  return first?.ownerId ?? '';
}

/**
 * effectiveConId once a person whose document says `user.effectiveConId` joins a channel of `ownerId` at `at`
 * (a backend that stores it rather than deriving it on read: Firestore): an earlier consultant stays.
 */
export function effectiveConIdAfterJoining(
  user: { uid: string; isOwner: boolean; effectiveConId: string },
  ownerId: string,
  at: number,
): string {
  const earlier = user.effectiveConId
    ? [{ ownerId: user.effectiveConId, joinedAt: Number.NEGATIVE_INFINITY }]
    : [];
  return effectiveConId(user, [...earlier, { ownerId, joinedAt: at }]);
}

/** The name shown for a person: nickname, else displayName, else the local part of their email. */
export function publicName(user: {
  nickname?: string | null;
  displayName?: string | null;
  email: string;
}): string {
  const nickname = user.nickname?.trim();
  if (nickname) return nickname;
  const displayName = user.displayName?.trim();
  if (displayName) return displayName;
  const at = user.email.indexOf('@');
  return at > 0 ? user.email.slice(0, at) : user.email;
}
