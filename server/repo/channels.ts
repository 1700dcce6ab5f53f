// channels and their members.
import type { Db } from '../db/database';
import { RowCache } from '../db/rowCache';
import type { Channel } from '../../core/model';
import { localPhotoURL } from '../../core/photos';

interface ChannelRow {
  id: string;
  channel_id: string;
  owner_id: string;
  title: string;
  description: string;
  created_at: number;
  members_json: string;
  kind: 'standard' | 'private';
  names_json: string | null;
  archived_at: number | null;
  photos_json: string | null;
}

// Members in the order they joined, gathered in the same statement as the channel.
const SELECT_CHANNEL = `SELECT c.*, (SELECT json_group_array(uid) FROM
    (SELECT uid FROM channel_members WHERE channel_id = c.id ORDER BY joined_at, uid)) AS members_json,
  (SELECT json_group_object(p.uid, p.id) FROM photos p WHERE p.uid = c.owner_id
    OR p.uid IN (SELECT uid FROM channel_members WHERE channel_id = c.id)) AS photos_json
  FROM channels c`;

/** The faces of the channel's people as URLs (the photo's id is its version), or undefined when none has one. */
function readPhotos(json: string | null): Record<string, string> | undefined {
  if (json === null) return undefined;
  const ids = JSON.parse(json) as Record<string, string>;
  const entries = Object.entries(ids);
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([uid, id]) => [uid, localPhotoURL(id)]));
}

const toChannel = (row: ChannelRow): Channel => {
  const channel: Channel = {
    id: row.id,
    channelId: row.channel_id,
    ownerId: row.owner_id,
    title: row.title,
    description: row.description,
    members: JSON.parse(row.members_json) as string[],
    createdAt: row.created_at,
  };
  if (row.archived_at !== null) channel.archivedAt = row.archived_at;
  const photos = readPhotos(row.photos_json);
  if (photos) channel.photos = photos;
  if (row.kind === 'private') {
    channel.kind = 'private';
    channel.names = row.names_json === null ? {} : (JSON.parse(row.names_json) as Record<string, string>);
  }
  return channel;
};

export type NewChannel = Omit<Channel, 'members' | 'kind' | 'names'>;

/** A member's join time (channel_members.joined_at). */
export interface Membership {
  uid: string;
  joinedAt: number;
}

export class ChannelsRepo {
  private readonly byId;
  private readonly byHandle;
  private readonly forUser;
  private readonly insertRow;
  private readonly insertMember;
  private readonly everyChannel;
  private readonly setDetails;
  private readonly memberships;
  private readonly byPair;
  private readonly insertPrivateRow;
  private readonly clientRow;
  private readonly clientsRow;
  private readonly setArchivedRow;
  private readonly setOwnerRow;
  private readonly removeMemberRow;
  private readonly deleteRow;
  /**
   * Channels by id, read on every request about one (who may read, send, manage): kept until a write to the
   * channel, its members or anyone's photo (server/db/rowCache.ts).
   */
  private readonly byIdKept;

  constructor(db: Db) {
    this.byIdKept = new RowCache<Channel>(db, 'channels', [
      { table: 'channels', keyColumn: 'id' },
      { table: 'channel_members', keyColumn: 'channel_id' },
      { table: 'photos' },
    ]);
    this.byId = db.prepare<[string], ChannelRow>(`${SELECT_CHANNEL} WHERE c.id = ?`);
    this.byHandle = db.prepare<[string], ChannelRow>(`${SELECT_CHANNEL} WHERE c.channel_id = ?`);
    this.forUser = db.prepare<[string, string], ChannelRow>(
      `${SELECT_CHANNEL} WHERE c.owner_id = ?
         OR c.id IN (SELECT channel_id FROM channel_members WHERE uid = ?)
       ORDER BY c.created_at, c.id`,
    );
    this.insertRow = db.prepare(
      `INSERT INTO channels (id, channel_id, owner_id, title, description, created_at)
       VALUES (@id, @channelId, @ownerId, @title, @description, @createdAt)`,
    );
    this.insertMember = db.prepare<[string, string, number]>(
      'INSERT OR IGNORE INTO channel_members (channel_id, uid, joined_at) VALUES (?, ?, ?)',
    );
    this.everyChannel = db.prepare<[], ChannelRow>(`${SELECT_CHANNEL} ORDER BY c.created_at, c.id`);
    this.setDetails = db.prepare<{ id: string; title: string; description: string }>(
      'UPDATE channels SET title = @title, description = @description WHERE id = @id',
    );
    this.byPair = db.prepare<[string], ChannelRow>(`${SELECT_CHANNEL} WHERE c.pair_key = ?`);
    this.insertPrivateRow = db.prepare(
      `INSERT INTO channels (id, channel_id, owner_id, title, description, created_at, kind, pair_key, names_json)
       VALUES (@id, @channelId, @ownerId, @title, @description, @createdAt, 'private', @pairKey, @namesJson)`,
    );
    // A consultant's clients: the members of the channels they own (their private consultations included).
    this.clientRow = db.prepare<[string, string], { one: number }>(
      `SELECT 1 AS one FROM channel_members m JOIN channels c ON c.id = m.channel_id
       WHERE c.owner_id = ? AND m.uid = ? LIMIT 1`,
    );
    this.clientsRow = db.prepare<[string], { uid: string }>(
      `SELECT DISTINCT m.uid FROM channel_members m JOIN channels c ON c.id = m.channel_id WHERE c.owner_id = ?`,
    );
    this.setArchivedRow = db.prepare<[number | null, string]>(
      'UPDATE channels SET archived_at = ? WHERE id = ?',
    );
    this.setOwnerRow = db.prepare<[string, string]>('UPDATE channels SET owner_id = ? WHERE id = ?');
    this.removeMemberRow = db.prepare<[string, string]>(
      'DELETE FROM channel_members WHERE channel_id = ? AND uid = ?',
    );
    this.deleteRow = db.prepare<[string]>('DELETE FROM channels WHERE id = ?');
    this.memberships = db.prepare<[string], { uid: string; joined_at: number }>(
      'SELECT uid, joined_at FROM channel_members WHERE channel_id = ? ORDER BY joined_at, uid',
    );
  }

  /** The channel (frozen: it may be the one kept for every reader), or null. */
  get(id: string): Readonly<Channel> | null {
    return this.byIdKept.get(id, () => {
      const row = this.byId.get(id);
      return row ? toChannel(row) : null;
    });
  }

  getByHandle(handle: string): Channel | null {
    const row = this.byHandle.get(handle);
    return row ? toChannel(row) : null;
  }

  /** Channels `uid` owns or is a member of, oldest first. */
  listFor(uid: string): Channel[] {
    return this.forUser.all(uid, uid).map(toChannel);
  }

  /** Every channel, oldest first (the admin section). */
  listAll(): Channel[] {
    return this.everyChannel.all().map(toChannel);
  }

  /** The members of a channel with the time each joined. */
  membersOf(id: string): Membership[] {
    return this.memberships.all(id).map((row) => ({ uid: row.uid, joinedAt: row.joined_at }));
  }

  /** Changes a channel's title and description (the caller applies the patch to the stored channel). */
  updateDetails(id: string, details: { title: string; description: string }): void {
    this.setDetails.run({ id, ...details });
  }

  insert(channel: NewChannel): void {
    this.insertRow.run(channel);
  }

  /** The private consultation of a pair (core/privateChannels.ts privatePairKey), or null. */
  getByPair(pairKey: string): Channel | null {
    const row = this.byPair.get(pairKey);
    return row ? toChannel(row) : null;
  }

  /** Stores a private consultation and its one member; the pair's key is unique (a second one fails). */
  insertPrivate(channel: Channel, pairKey: string): void {
    this.insertPrivateRow.run({
      id: channel.id,
      channelId: channel.channelId,
      ownerId: channel.ownerId,
      title: channel.title,
      description: channel.description,
      createdAt: channel.createdAt,
      pairKey,
      namesJson: JSON.stringify(channel.names ?? {}),
    });
    for (const uid of channel.members) this.insertMember.run(channel.id, uid, channel.createdAt);
  }

  /** Whether `uid` is in one of the channels `consultantId` owns: one of their clients. */
  isClientOf(consultantId: string, uid: string): boolean {
    return consultantId !== '' && uid !== '' && this.clientRow.get(consultantId, uid) !== undefined;
  }

  /** Everyone in one of the channels `consultantId` owns. */
  clientsOf(consultantId: string): string[] {
    return this.clientsRow.all(consultantId).map((row) => row.uid);
  }

  /** Archives (a time) or reopens (null) a channel. */
  setArchived(id: string, archivedAt: number | null): void {
    this.setArchivedRow.run(archivedAt, id);
  }

  /** Hands a channel to another owner. */
  setOwner(id: string, ownerId: string): void {
    this.setOwnerRow.run(ownerId, id);
  }

  removeMember(channelId: string, uid: string): boolean {
    return this.removeMemberRow.run(channelId, uid).changes > 0;
  }

  /** Deletes a channel; its messages, members, invitations and offers go with it (ON DELETE CASCADE). */
  delete(id: string): boolean {
    return this.deleteRow.run(id).changes > 0;
  }

  /** Adds a member; false when they already were one. */
  addMember(channelId: string, uid: string, joinedAt: number): boolean {
    return this.insertMember.run(channelId, uid, joinedAt).changes > 0;
  }
}
