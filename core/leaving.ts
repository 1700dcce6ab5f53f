// Leaving QuPM, for both backends and the client: the shape of "Download my data" (one
// versioned JSON document, never a secret in it), its file name, who may leave (a consultant who still owns
// channels may not), and what the others see of someone who left ("A former member", never their name).
import type { Attachment } from './attachments';
import { QupmError } from './errors';
import type { ChannelMutes } from './mutes';
import type {
  ChatMessage,
  Invitation,
  IssuedOffer,
  NotificationSettings,
  Offer,
  Platform,
  PushTokenDoc,
  UserDoc,
} from './model';

export const ACCOUNT_EXPORT_FORMAT = 'qupm-export';
/** Raised when a field changes meaning or goes; new optional fields keep the version. */
export const ACCOUNT_EXPORT_VERSION = 1;

/**
 * Whoever sent a message and has since deleted their account: every such message keeps its place and text, its
 * sender becomes this id and this name. One id for all former members, so nothing that identifies the person
 * (not even a pseudonymous id) stays with their messages, and nobody's own uid ever equals it (ids are random).
 */
export const FORMER_MEMBER_ID = 'formerMember00000000';
export const FORMER_MEMBER_NAME = 'A former member';

export const LEAVING_MESSAGES = {
  notYours: 'You can only download or delete your own account.',
  wrongPassword: 'That password is not right. Your account has not been deleted.',
  passwordMissing: 'Enter your password to delete your account.',
} as const;

/** The refusal of a consultant who still owns channels: what to do first, naming the channels. */
export function ownsChannelsMessage(titles: readonly string[]): string {
  const shown = titles.slice(0, 3).map((title) => `“${title}”`);
  const more = titles.length > 3 ? ` and ${titles.length - 3} more` : '';
  const what = titles.length === 1 ? 'a channel' : `${titles.length} channels`;
  return (
    `You still own ${what} (${shown.join(', ')}${more}). Hand each one over to another consultant or delete ` +
    'it first; your account has not been deleted.'
  );
}

/** Refuses to delete the account of someone who still owns channels (their members would be left without one). */
export function assertCanLeave(ownedChannelTitles: readonly string[]): void {
  if (ownedChannelTitles.length > 0) {
    throw new QupmError('FAILED_PRECONDITION', ownsChannelsMessage(ownedChannelTitles));
  }
}

/** The refusal of a consultant with sessions still open: their clients would be left waiting. */
export function openSessionsMessage(count: number): string {
  const what = count === 1 ? 'a session' : `${count} sessions`;
  return (
    `You still have ${what} booked with clients or waiting for your answer. Confirm and finish, decline or ` +
    'cancel each one first; your account has not been deleted.'
  );
}

/** Refuses to delete the account of a consultant whose bookings are still open (requested or confirmed). */
export function assertNoOpenSessions(openAsConsultant: number): void {
  if (openAsConsultant > 0) throw new QupmError('FAILED_PRECONDITION', openSessionsMessage(openAsConsultant));
}

/** One of the person's messages, with the title of the channel it was sent in. */
export interface ExportedMessage {
  id: string;
  channelId: string;
  channelTitle: string;
  text: string;
  createdAt: number;
  editedAt?: number;
  deleted?: true;
  /** What the files were (name, kind, type and size each); the bytes stay where they are. */
  attachments?: Array<Pick<Attachment, 'id' | 'name' | 'kind' | 'contentType' | 'size'>>;
}

/** A device that receives the person's notifications: what it is and when it was used, never its push token. */
export interface ExportedDevice {
  id: string;
  deviceId: string;
  platform: Platform;
  userAgent: string;
  createdAt: number;
  lastUsed: number;
}

/** "Download my data": everything QuPM keeps about an account, in one document. */
export interface AccountExport {
  format: typeof ACCOUNT_EXPORT_FORMAT;
  version: typeof ACCOUNT_EXPORT_VERSION;
  /** ISO 8601, UTC. */
  exportedAt: string;
  /** The user document: email, names, role, balances. */
  account: UserDoc;
  settings: NotificationSettings;
  /** The person's muted channels: channel id → until when (epoch ms). */
  mutes: ChannelMutes;
  /** Oldest first. */
  messages: ExportedMessage[];
  offers: { received: Offer[]; issued: IssuedOffer[] };
  invitations: { sent: Invitation[]; received: Invitation[] };
  devices: ExportedDevice[];
}

/** What a backend gathers for an export. */
export interface AccountExportParts {
  account: UserDoc;
  mutes: ChannelMutes;
  messages: readonly ExportedMessage[];
  offersReceived: readonly Offer[];
  offersIssued: readonly IssuedOffer[];
  invitationsSent: readonly Invitation[];
  invitationsReceived: readonly Invitation[];
  devices: readonly PushTokenDoc[];
}

/** A token document as the export shows it: the push token (a subscription's keys, or FCM's) is left out. */
export function toExportedDevice(doc: PushTokenDoc): ExportedDevice {
  return {
    id: doc.id,
    deviceId: doc.deviceId,
    platform: doc.platform,
    userAgent: doc.userAgent,
    createdAt: doc.createdAt,
    lastUsed: doc.lastUsed,
  };
}

/** A message's file as the export names it (no download address: it needs the person's session anyway). */
export function toExportedAttachment(
  attachment: Attachment,
): NonNullable<ExportedMessage['attachments']>[number] {
  return {
    id: attachment.id,
    name: attachment.name,
    kind: attachment.kind,
    contentType: attachment.contentType,
    size: attachment.size,
  };
}

/** One of the person's messages as the export shows it, with its channel's name as they saw it. */
export function toExportedMessage(message: ChatMessage, channelTitle: string): ExportedMessage {
  const exported: ExportedMessage = {
    id: message.id,
    channelId: message.channelId,
    channelTitle,
    text: message.text,
    createdAt: message.createdAt,
  };
  if (message.editedAt !== undefined) exported.editedAt = message.editedAt;
  if (message.deleted) exported.deleted = true;
  if (message.attachments) exported.attachments = message.attachments.map(toExportedAttachment);
  return exported;
}

const byTimeThenId = <T extends { createdAt: number; id: string }>(a: T, b: T): number =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The export document, the same on both backends. */
export function buildAccountExport(parts: AccountExportParts, now: number): AccountExport {
  return {
    format: ACCOUNT_EXPORT_FORMAT,
    version: ACCOUNT_EXPORT_VERSION,
    exportedAt: new Date(now).toISOString(),
    account: parts.account,
    settings: parts.account.notificationSettings,
    mutes: { ...parts.mutes },
    messages: [...parts.messages].sort(byTimeThenId),
    offers: { received: [...parts.offersReceived], issued: [...parts.offersIssued] },
    invitations: { sent: [...parts.invitationsSent], received: [...parts.invitationsReceived] },
    devices: parts.devices.map(toExportedDevice),
  };
}

/** `qupm-data-YYYY-MM-DD.json`, the day (UTC) of the export. */
export function accountExportFileName(exportedAt: string): string {
  return `qupm-data-${exportedAt.slice(0, 10)}.json`;
}

/**
 * A private consultation whose client has left: it stays with its consultant, listed as "A former member", and
 * its stored names keep only the consultant's (the one who left is no longer named anywhere).
 */
export function privateChannelAfterLeaving(
  names: Readonly<Record<string, string>>,
  ownerId: string,
): { title: string; names: Record<string, string> } {
  return { title: FORMER_MEMBER_NAME, names: { [ownerId]: names[ownerId] ?? '' } };
}

/**
 * A private consultation whose consultant has left: it stays with its client, read-only (archived at `at`: nobody
 * would read what they wrote), owned by the former member and listed under that name.
 */
export function privateChannelAfterOwnerLeft(
  names: Readonly<Record<string, string>>,
  memberId: string,
  at: number,
): { ownerId: string; title: string; names: Record<string, string>; archivedAt: number } {
  return {
    ownerId: FORMER_MEMBER_ID,
    title: FORMER_MEMBER_NAME,
    names: { [FORMER_MEMBER_ID]: FORMER_MEMBER_NAME, [memberId]: names[memberId] ?? '' },
    archivedAt: at,
  };
}
