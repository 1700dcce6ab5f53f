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
}

interface IssuedRow extends OfferRow {
  user_email: string;
  user_nickname: string | null;
  user_display_name: string | null;
}

const toStored = (row: OfferRow): StoredOffer => ({
  offeringId: row.id,
  userId: row.user_id,
  channelId: row.channel_id,
  discountPercent: row.discount_percent,
  source: row.source,
  status: row.status,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

const toIssued = (row: IssuedRow): IssuedOffer => ({
  ...toStored(row),
  userName: publicName({
    nickname: row.user_nickname,
    displayName: row.user_display_name,
    email: row.user_email,
  }),
});

export class OffersRepo {
  private readonly forUser;
  private readonly insertRow;
  private readonly issued;
  private readonly issuedOne;

  constructor(db: Db) {
    this.forUser = db.prepare<[string], OfferRow>('SELECT * FROM offers WHERE user_id = ?');
    // The issuer is the owner of the offer's channel (only a channel's owner issues its offers, and a channel
    // never changes hands).
    const issuedSelect = `SELECT o.*, u.email AS user_email, u.nickname AS user_nickname,
         u.display_name AS user_display_name
       FROM offers o JOIN channels c ON c.id = o.channel_id JOIN users u ON u.uid = o.user_id`;
    this.issued = db.prepare<[string], IssuedRow>(
      `${issuedSelect} WHERE c.owner_id = ? ORDER BY o.created_at DESC, o.id`,
    );
    this.issuedOne = db.prepare<[string], IssuedRow>(`${issuedSelect} WHERE o.id = ?`);
    this.insertRow = db.prepare(
      `INSERT INTO offers (id, user_id, channel_id, discount_percent, source, status, expires_at, created_at)
       VALUES (@offeringId, @userId, @channelId, @discountPercent, @source, @status, @expiresAt, @createdAt)`,
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
    this.insertRow.run(offer);
  }
}
