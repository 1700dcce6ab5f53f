// offers: discounts a consultant grants a member of their channel.
import type { Db } from '../db/database';
import type { Offer } from '../../core/model';
import type { StoredOffer } from '../../core/offers';

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

export class OffersRepo {
  private readonly forUser;
  private readonly insertRow;

  constructor(db: Db) {
    this.forUser = db.prepare<[string], OfferRow>('SELECT * FROM offers WHERE user_id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO offers (id, user_id, channel_id, discount_percent, source, status, expires_at, created_at)
       VALUES (@offeringId, @userId, @channelId, @discountPercent, @source, @status, @expiresAt, @createdAt)`,
    );
  }

  /** Every offer granted to `uid`; core/offers.ts decides which are active. */
  listFor(uid: string): StoredOffer[] {
    return this.forUser.all(uid).map((row) => ({
      offeringId: row.id,
      userId: row.user_id,
      channelId: row.channel_id,
      discountPercent: row.discount_percent,
      source: row.source,
      status: row.status,
      expiresAt: row.expires_at,
      createdAt: row.created_at,
    }));
  }

  insert(offer: StoredOffer): void {
    this.insertRow.run(offer);
  }
}
