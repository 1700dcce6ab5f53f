// users/{uid}: accounts (email, password hash, admin flag) and the user document of ARCHITECTURE.md "Data".
// One row is no account: the former member (core/leaving.ts, migration 012), which has no address and no
// password and which every departed person's messages point at. Every read and write of an account below
// passes it by (ACCOUNT), so it cannot sign in, be reset, confirmed, exported, promoted or granted anything;
// only the name others see (publicName) reads it.
import type { Db } from '../db/database';
import { RowCache } from '../db/rowCache';
import type { AdminUser, NotificationSettings, UserDoc } from '../../core/model';
import { DEFAULT_NOTIFICATION_SETTINGS, NOT_OPTED_IN } from '../../core/model';
import { notificationSettingsSchema } from '../../core/schemas';
import { effectiveConId, publicName } from '../../core/users';
import { localPhotoURL } from '../../core/photos';
import type { JoinedChannel } from '../../core/users';

/** The rows that are accounts: all but the former member, the only one without an address (migration 012). */
const ACCOUNT = 'email IS NOT NULL';

interface UserRow {
  uid: string;
  email: string;
  password_hash: string;
  is_admin: number;
  is_owner: number;
  domain_id: string | null;
  nickname: string | null;
  display_name: string | null;
  notification_settings: string;
  credits: number;
  pass_count: number;
  created_at: number;
  email_verified_at: number | null;
}

export interface NewUser {
  uid: string;
  email: string;
  passwordHash: string;
  createdAt: number;
  displayName?: string;
  nickname?: string;
  isOwner?: boolean;
  isAdmin?: boolean;
  domainId?: string;
  notificationSettings?: NotificationSettings;
  /** When the address was confirmed; absent: not confirmed. */
  emailVerifiedAt?: number;
}

/** What sign-in and sessions need of an account. */
export interface Account {
  uid: string;
  email: string;
  passwordHash: string;
  isAdmin: boolean;
  displayName: string | null;
  /** Whether the address is confirmed. */
  emailVerified: boolean;
}

/** The fields a user may change on their own document (core/schemas.ts profilePatchBody). */
export interface ProfileChanges {
  nickname?: string;
  displayName?: string;
  notificationSettings?: NotificationSettings;
}

function readSettings(json: string): NotificationSettings {
  try {
    const parsed = notificationSettingsSchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // A damaged value reads as not opted in (spec §5) rather than breaking the user's document.
  }
  return NOT_OPTED_IN;
}

const toAccount = (row: UserRow): Account => ({
  uid: row.uid,
  email: row.email,
  passwordHash: row.password_hash,
  isAdmin: row.is_admin === 1,
  displayName: row.display_name,
  emailVerified: row.email_verified_at !== null,
});

const toAdminUser = (row: UserRow): AdminUser => ({
  uid: row.uid,
  email: row.email,
  name: publicName({ nickname: row.nickname, displayName: row.display_name, email: row.email }),
  isOwner: row.is_owner === 1,
  isAdmin: row.is_admin === 1,
  createdAt: row.created_at,
});

export class UsersRepo {
  private readonly byUid;
  private readonly anyByUid;
  private readonly byEmail;
  private readonly insertRow;
  private readonly joined;
  private readonly setProfile;
  private readonly countRows;
  private readonly everyone;
  private readonly setOwnerFlag;
  private readonly settingsOf;
  private readonly existsRow;
  private readonly confirm;
  private readonly verifiedOf;
  private readonly setHash;
  private readonly setEmail;
  private readonly photoOf;
  /** Accounts known to exist, asked on every authenticated request (server/db/rowCache.ts drops them). */
  private readonly existing;

  constructor(db: Db) {
    this.existing = new RowCache<true>(db, 'accounts', [{ table: 'users', keyColumn: 'uid' }]);
    this.photoOf = db.prepare<[string], { id: string }>('SELECT id FROM photos WHERE uid = ?');
    this.byUid = db.prepare<[string], UserRow>(`SELECT * FROM users WHERE uid = ? AND ${ACCOUNT}`);
    this.anyByUid = db.prepare<
      [string],
      Pick<UserRow, 'nickname' | 'display_name'> & { email: string | null }
    >('SELECT nickname, display_name, email FROM users WHERE uid = ?');
    this.byEmail = db.prepare<[string], UserRow>(`SELECT * FROM users WHERE email = ? AND ${ACCOUNT}`);
    this.insertRow = db.prepare(
      `INSERT INTO users (uid, email, password_hash, is_admin, is_owner, domain_id, nickname, display_name,
         notification_settings, credits, pass_count, created_at, email_verified_at)
       VALUES (@uid, @email, @passwordHash, @isAdmin, @isOwner, @domainId, @nickname, @displayName,
         @notificationSettings, @credits, @passCount, @createdAt, @emailVerifiedAt)`,
    );
    this.joined = db.prepare<[string], { owner_id: string; joined_at: number }>(
      `SELECT c.owner_id, m.joined_at FROM channel_members m JOIN channels c ON c.id = m.channel_id
       WHERE m.uid = ? ORDER BY m.joined_at, c.created_at`,
    );
    this.setProfile = db.prepare(
      `UPDATE users SET nickname = @nickname, display_name = @displayName,
         notification_settings = @notificationSettings WHERE uid = @uid AND ${ACCOUNT}`,
    );
    this.countRows = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM users WHERE ${ACCOUNT}`);
    this.everyone = db.prepare<[], UserRow>(`SELECT * FROM users WHERE ${ACCOUNT} ORDER BY created_at, uid`);
    this.setOwnerFlag = db.prepare<[number, string]>(
      `UPDATE users SET is_owner = ? WHERE uid = ? AND ${ACCOUNT}`,
    );
    this.existsRow = db.prepare<[string], { one: number }>(
      `SELECT 1 AS one FROM users WHERE uid = ? AND ${ACCOUNT}`,
    );
    this.settingsOf = db.prepare<[string], { notification_settings: string }>(
      `SELECT notification_settings FROM users WHERE uid = ? AND ${ACCOUNT}`,
    );
    this.confirm = db.prepare<[number, string, string]>(
      'UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE uid = ? AND email = ?',
    );
    this.verifiedOf = db.prepare<[string], { verified: number }>(
      `SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE uid = ? AND ${ACCOUNT}`,
    );
    this.setHash = db.prepare<[string, string]>(
      `UPDATE users SET password_hash = ? WHERE uid = ? AND ${ACCOUNT}`,
    );
    this.setEmail = db.prepare<[string, number, string]>(
      `UPDATE users SET email = ?, email_verified_at = ? WHERE uid = ? AND ${ACCOUNT}`,
    );
  }

  insert(user: NewUser): void {
    this.insertRow.run({
      uid: user.uid,
      email: user.email,
      passwordHash: user.passwordHash,
      isAdmin: user.isAdmin ? 1 : 0,
      isOwner: user.isOwner ? 1 : 0,
      domainId: user.domainId ?? null,
      nickname: user.nickname ?? null,
      displayName: user.displayName ?? null,
      notificationSettings: JSON.stringify(user.notificationSettings ?? DEFAULT_NOTIFICATION_SETTINGS),
      // Balances start at 0 and move only through the ledger (server/services/ledger.ts).
      credits: 0,
      passCount: 0,
      createdAt: user.createdAt,
      emailVerifiedAt: user.emailVerifiedAt ?? null,
    });
  }

  count(): number {
    return this.countRows.get()?.n ?? 0;
  }

  findAccountByEmail(email: string): Account | undefined {
    const row = this.byEmail.get(email);
    return row ? toAccount(row) : undefined;
  }

  /**
   * Whether the account exists (checked on every authenticated request: a primary-key look-up the first time,
   * then remembered until a write to the user's row).
   */
  exists(uid: string): boolean {
    return this.existing.get(uid, () => (this.existsRow.get(uid) !== undefined ? true : null)) === true;
  }

  findAccount(uid: string): Account | undefined {
    const row = this.byUid.get(uid);
    return row ? toAccount(row) : undefined;
  }

  /**
   * The name others see for this user (nickname, displayName, email's local part); '' when unknown. The former
   * member's too ("A former member"): it names invitations and channels that outlived their people.
   */
  publicName(uid: string): string {
    const row = this.anyByUid.get(uid);
    return row
      ? publicName({ nickname: row.nickname, displayName: row.display_name, email: row.email ?? '' })
      : '';
  }

  getDoc(uid: string): UserDoc | null {
    const row = this.byUid.get(uid);
    if (!row) return null;
    const joined: JoinedChannel[] = this.joined
      .all(uid)
      .map((r) => ({ ownerId: r.owner_id, joinedAt: r.joined_at }));
    const doc: UserDoc = {
      uid: row.uid,
      email: row.email,
      isOwner: row.is_owner === 1,
      notificationSettings: readSettings(row.notification_settings),
      credits: row.credits,
      passCount: row.pass_count,
      effectiveConId: effectiveConId({ uid: row.uid, isOwner: row.is_owner === 1 }, joined),
    };
    if (row.domain_id !== null) doc.domainId = row.domain_id;
    if (row.nickname !== null) doc.nickname = row.nickname;
    if (row.display_name !== null) doc.displayName = row.display_name;
    const photo = this.photoOf.get(uid);
    if (photo) doc.photoURL = localPhotoURL(photo.id);
    return doc;
  }

  /** Applies a validated profile patch; an empty nickname removes it. Returns false when there is no such user. */
  updateProfile(uid: string, changes: ProfileChanges): boolean {
    const row = this.byUid.get(uid);
    if (!row) return false;
    const nickname = changes.nickname === undefined ? row.nickname : changes.nickname || null;
    this.setProfile.run({
      uid,
      nickname,
      displayName: changes.displayName ?? row.display_name,
      notificationSettings:
        changes.notificationSettings === undefined
          ? row.notification_settings
          : JSON.stringify(changes.notificationSettings),
    });
    return true;
  }

  /** Every account as the admin section lists it, oldest first. */
  listAdmin(): AdminUser[] {
    return this.everyone.all().map(toAdminUser);
  }

  /** The admin section's row of one account, or null. */
  getAdmin(uid: string): AdminUser | null {
    const row = this.byUid.get(uid);
    return row ? toAdminUser(row) : null;
  }

  /** Makes or unmakes a consultant; false when there is no such user. */
  setOwner(uid: string, isOwner: boolean): boolean {
    return this.setOwnerFlag.run(isOwner ? 1 : 0, uid).changes === 1;
  }

  /** The user's notification settings (the defaults when unreadable), or null when there is no such user. */
  notificationSettings(uid: string): NotificationSettings | null {
    const row = this.settingsOf.get(uid);
    return row ? readSettings(row.notification_settings) : null;
  }

  /**
   * Confirms the account's address, when it is still `email`; false when there is no such
   * account or its address has changed since the link was sent.
   */
  confirmEmail(uid: string, email: string, now: number): boolean {
    return this.confirm.run(now, uid, email).changes === 1;
  }

  /** Whether the account's address is confirmed; false for an unknown account. */
  isEmailVerified(uid: string): boolean {
    return this.verifiedOf.get(uid)?.verified === 1;
  }

  /** Replaces the account's password hash (a password reset); false when there is no such account. */
  setPasswordHash(uid: string, passwordHash: string): boolean {
    return this.setHash.run(passwordHash, uid).changes === 1;
  }

  /** Replaces the account's address with a confirmed new one; false when there is no such account. */
  changeEmail(uid: string, email: string, now: number): boolean {
    return this.setEmail.run(email, now, uid).changes === 1;
  }
}
