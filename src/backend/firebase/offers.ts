// OffersPort on Firebase: issuing and listing go through callables (an offer is written by functions only,
// firestore.rules); the person's own offers are followed live on offers where userId is theirs.
import type { OffersPort } from '../ports';
import { callFunction } from './callables';
import { listOf, toIssuedOffer } from './convert';
import { listenLazily } from './live';
import type { FirebaseSdk } from './sdk';

export function createOffersPort(sdk: FirebaseSdk): Omit<OffersPort, 'listMyOffers' | 'withdrawOffer'> {
  return {
    issueOffer: (input) => callFunction(sdk, 'issue_offer', input, toIssuedOffer),
    listIssuedOffers: () =>
      callFunction(sdk, 'list_issued_offers', null, (data) => listOf(data, 'offers', toIssuedOffer)),
    subscribeOffers: (listener) =>
      listenLazily(sdk, 'Live offers', ({ sdk: fs, db }) => {
        let first = true;
        return fs.onSnapshot(
          fs.query(fs.collection(db, 'offers'), fs.where('userId', '==', sdk.requireUid())),
          () => {
            // The first snapshot is what get_user_active_offers already answered.
            if (first) first = false;
            else listener();
          },
        );
      }),
  };
}
