// The world of world.ts as Firebase holds it, for both of the contract's Firebase harnesses: its documents (the
// layout of ARCHITECTURE.md "Data", written as functions/ would have) and its Firebase Auth accounts.
import {
  putChannel,
  putInvitation,
  putMessage,
  putOffer,
  putUser,
} from '../../../functions/__tests__/support/seed';
import type { DocumentWriter } from '../../../functions/__tests__/support/seed';
import {
  ACCOUNTS_CREATED_AT,
  CHANNELS,
  INVITATIONS,
  MEMBER_JOINED_AT,
  MESSAGES,
  OFFERS,
  PASSWORD,
  PEOPLE,
} from './world';

export interface WorldAccount {
  uid: string;
  email: string;
  password: string;
  displayName: string;
  /** The custom claims: spec §6's isAdmin for the admin. */
  claims: { isAdmin?: true };
  /** Every address of the world is confirmed, as the embedded server's seeded accounts are. */
  emailVerified: true;
}

export const WORLD_ACCOUNTS: readonly WorldAccount[] = Object.values(PEOPLE).map((person) => ({
  uid: person.uid,
  email: person.email,
  password: PASSWORD,
  displayName: person.displayName,
  claims: 'isAdmin' in person && person.isAdmin ? { isAdmin: true } : {},
  emailVerified: true,
}));

export function seedWorldDocuments(store: DocumentWriter): void {
  for (const person of Object.values(PEOPLE)) {
    const { isAdmin: _admin, ...fields } = person as typeof person & { isAdmin?: boolean };
    const joinedStudio = (CHANNELS.studio.members as readonly string[]).includes(person.uid);
    putUser(store, {
      ...fields,
      notificationSettings: {
        enabled: person.notificationSettings.enabled,
        delivery: { channels: [...person.notificationSettings.delivery.channels] },
      },
      effectiveConId:
        'isOwner' in person && person.isOwner ? person.uid : joinedStudio ? CHANNELS.studio.ownerId : '',
      createdAt: ACCOUNTS_CREATED_AT,
    });
  }
  for (const channel of Object.values(CHANNELS)) {
    putChannel(store, {
      ...channel,
      members: [...channel.members],
      joinedAt: Object.fromEntries(channel.members.map((uid) => [uid, MEMBER_JOINED_AT])),
    });
  }
  for (const message of MESSAGES) putMessage(store, message);
  for (const invitation of Object.values(INVITATIONS)) putInvitation(store, invitation);
  for (const offer of OFFERS) putOffer(store, offer);
}
