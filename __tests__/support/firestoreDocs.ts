// Firestore documents as tests of their readers build them: Timestamps in the plain shape they have once read
// (or serialised into a callable's answer), and an offer document with its fields overridable.
export const NOW = 1_767_225_600_000;

/** A Timestamp at `ms`, as `{seconds, nanoseconds}`. */
export const stamp = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanoseconds: (ms % 1000) * 1e6 });

/** offers/{id} as stored, active for another minute. */
export const offerDoc = (over: Record<string, unknown> = {}) => ({
  offeringId: 'off1',
  userId: 'member',
  discountPercent: 15,
  source: 'Consultant offer',
  channelId: 'chan',
  status: 'active',
  expiresAt: stamp(NOW + 60_000),
  createdAt: stamp(NOW - 60_000),
  ...over,
});
