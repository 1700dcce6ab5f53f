// /services → Offers you issued: a consultant withdraws an active offer, after a second step that says what it
// does; the client's card then says "Withdrawn". The request is the consultant tools' (their chunk loads with it).
import { useState } from 'react';
import type { IssuedOffer } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { StepError } from '@/ui/StepError';
import { offerWithdrawRequested, selectStep, stepKey } from '@/store/housekeepingSlice';

export function WithdrawOffer({ offer }: { offer: IssuedOffer }) {
  const dispatch = useAppDispatch();
  const [confirming, setConfirming] = useState(false);
  const working = useAppSelector(
    (state) => selectStep(state, stepKey('withdraw', offer.offeringId))?.status === 'working',
  );
  const what = `${offer.discountPercent} % for ${offer.userName}`;
  return (
    <span className="issued__withdraw">
      {!confirming ? (
        <button
          type="button"
          className="button button--small button--quiet"
          onClick={() => setConfirming(true)}
        >
          Withdraw<span className="visually-hidden"> the offer of {what}</span>
        </button>
      ) : (
        <span className="housekeeping__actions" role="group" aria-label={`Withdraw the offer of ${what}`}>
          <span>{offer.userName} can no longer use it.</span>
          <button
            type="button"
            className="button button--small button--danger"
            disabled={working}
            onClick={() => dispatch(offerWithdrawRequested({ offerId: offer.offeringId }))}
          >
            {working ? 'Withdrawing…' : 'Withdraw offer'}
          </button>
          <button
            type="button"
            className="button button--small button--quiet"
            disabled={working}
            onClick={() => setConfirming(false)}
          >
            Keep it
          </button>
        </span>
      )}
      <StepError kind="withdraw" target={offer.offeringId} />
    </span>
  );
}
