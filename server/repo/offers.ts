// offers: discounts a consultant grants a member of their channel.
import type { Db } from '../db/database';
import type { IssuedOffer, Offer } from '../../core/model';
import type { StoredOffer } from '../../core/offers';
import { publicName } from '../../core/users';

interface OfferRow {
  id: string;
  user_id: string;
  channel_id: string;
  discount_percent: number;
  source: string;
  status: Offer['status'];
  expires_at: number;
  created_at: number;
  service_id: string | null;
  consultant_id: string | null;
}

interface IssuedRow extends OfferRow {
  user_email: string;
  user_nickname: string | null;
  user_display_name: string | null;
}

const toStored = (row: OfferRow): StoredOffer => ({
  ...(row.service_id !== null ? { serviceId: row.service_id } : {}),
  ...(row.consultant_id !== null ? { consultantId: row.consultant_id } : {}),
  offeringId: row.id,
  userId: row.user_id,
  channelId: row.channel_id,
  discountPercent: row.discount_percent,
  source: row.source,
  status: row.status,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

const toIssued = (row: IssuedRow): IssuedOffer => {
  // Whom it went to and their name; its consultant is the one reading it.
  const { consultantId: _consultant, ...offer } = toStored(row);
  return {
    ...offer,
    userName: publicName({
      nickname: row.user_nickname,
      displayName: row.user_display_name,
      email: row.user_email,
    }),
  };
};

export class OffersRepo {
  private readonly forUser;
  private readonly insertRow;
  private readonly issued;
  private readonly issuedOne;
  private readonly byId;
  private readonly setStatusRow;
  private readonly activeInChannel;

  constructor(db: Db) {
    this.forUser = db.prepare<[string], OfferRow>('SELECT * FROM offers WHERE user_id = ?');
    // The issuer is the consultant who made the offer (migration 011 named them: channels change hands now); an
    // offer that names nobody is its channel's owner's, as before.
    const issuedSelect = `SELECT o.*, u.email AS user_email, u.nickname AS user_nickname,
         u.display_name AS user_display_name
       FROM offers o JOIN users u ON u.uid = o.user_id LEFT JOIN channels c ON c.id = o.channel_id`;
    this.issued = db.prepare<[string], IssuedRow>(
      `${issuedSelect} WHERE COALESCE(o.consultant_id, c.owner_id) = ? ORDER BY o.created_at DESC, o.id`,
    );
    this.byId = db.prepare<[string], OfferRow>('SELECT * FROM offers WHERE id = ?');
    this.setStatusRow = db.prepare<[Offer['status'], string]>('UPDATE offers SET status = ? WHERE id = ?');
    this.activeInChannel = db.prepare<[string], OfferRow>(
      `SELECT * FROM offers WHERE channel_id = ? AND status = 'active'`,
    );
    this.issuedOne = db.prepare<[string], IssuedRow>(`${issuedSelect} WHERE o.id = ?`);
    this.insertRow = db.prepare(
      `INSERT INTO offers (id, user_id, channel_id, discount_percent, source, status, expires_at, created_at,
         service_id, consultant_id)
       VALUES (@offeringId, @userId, @channelId, @discountPercent, @source, @status, @expiresAt, @createdAt,
         @serviceId, @consultantId)`,
    );
  }

  /** Every offer granted to `uid`; core/offers.ts decides which are active. */
  listFor(uid: string): StoredOffer[] {
    return this.forUser.all(uid).map(toStored);
  }

  /** The offers of the channels `ownerUid` owns, newest first, with whom each went to. */
  listIssuedBy(ownerUid: string): IssuedOffer[] {
    return this.issued.all(ownerUid).map(toIssued);
  }

  getIssued(id: string): IssuedOffer | null {
    const row = this.issuedOne.get(id);
    return row ? toIssued(row) : null;
  }

  insert(offer: StoredOffer): void {
    this.insertRow.run({ serviceId: null, consultantId: null, ...offer });
  }

  get(id: string): StoredOffer | null {
    const row = this.byId.get(id);
    return row ? toStored(row) : null;
  }

  setStatus(id: string, status: Offer['status']): void {
    this.setStatusRow.run(status, id);
  }

  /** The offers of a channel still marked active (expired ones too: withdrawing them is harmless). */
  listActiveIn(channelId: string): StoredOffer[] {
    return this.activeInChannel.all(channelId).map(toStored);
  }
}
