// The web adapter reads callable answers with core/documents.ts, as functions/ reads the documents it answers
// from: an offer or invitation reads the same on both sides, whatever its status says.
import { toInvitation, toStoredOffer } from '@core/documents';
import { toOffer as offerFields } from '@core/offers';
import { toInvitation as invitationAnswer, toOffer as offerAnswer } from '@/backend/firebase/convert';
import { NOW, offerDoc } from '../../support/firestoreDocs';

/** What a callable answer looks like on the wire: JSON, Timestamps as the Admin SDK serialises them. */
const overTheWire = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

describe('the web adapter reads callable answers as functions/ reads the documents', () => {
  it.each(['active', 'used', 'revoked', 'unknown', undefined])('an offer with status %p', (status) => {
    const stored = toStoredOffer('doc1', offerDoc({ status }));
    // get_user_active_offers answers core/offers.ts toOffer of what functions/ read.
    expect(offerAnswer(overTheWire(offerFields(stored)))).toEqual(offerFields(stored));
    // A raw answer carrying the document's own fields reads as the document does.
    expect(offerAnswer(overTheWire(offerDoc({ status })))).toEqual(offerFields(stored));
  });

  it('an invitation', () => {
    const names = { channelTitle: 'Growth Clinic', consultantName: 'Dana' };
    const read = toInvitation(
      'inv1',
      { channelId: 'c', consultantId: 'd', status: 'odd', expiresAt: NOW },
      names,
    );
    expect(read.status).toBe('pending');
    expect(invitationAnswer(overTheWire(read))).toStrictEqual(read);
  });
});
