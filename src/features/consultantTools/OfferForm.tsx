// A channel's owner sends one member an offer: a discount, how many days it runs and what it is for. The
// numbers are checked with core's rules before anything is sent; the backend checks them again.
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { VALIDITY_DAYS, expiresAfterDays, isValidityDays } from '@core/expiry';
import { LIMITS } from '@core/limits';
import type { Channel, ChannelMember } from '@core/model';
import { isDiscountPercent } from '@core/offers';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { offerIssueDismissed, offerIssueRequested, selectOfferIssue } from '@/store/offersSlice';
import { formatFullTime } from '@/ui/time';
import { readWholeNumber } from './formNumbers';

export function OfferForm({
  channel,
  member,
  onDone,
}: {
  channel: Channel;
  member: ChannelMember;
  onDone: () => void;
}) {
  const dispatch = useAppDispatch();
  const issue = useAppSelector(selectOfferIssue);
  const ids = { discount: useId(), days: useId(), source: useId() };
  const [discount, setDiscount] = useState('10');
  const [days, setDays] = useState('7');
  const [source, setSource] = useState(channel.title);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void dispatch(offerIssueDismissed()), [dispatch]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const percent = readWholeNumber(discount);
    if (!isDiscountPercent(percent))
      return setProblem(`A discount is a whole percent from ${LIMITS.discountMin} to ${LIMITS.discountMax}.`);
    const validDays = readWholeNumber(days);
    if (!isValidityDays(validDays))
      return setProblem(`An offer lasts ${VALIDITY_DAYS.min} to ${VALIDITY_DAYS.max} days.`);
    setProblem(null);
    dispatch(
      offerIssueRequested({
        channelId: channel.id,
        userId: member.uid,
        discountPercent: percent,
        source: source.trim() || channel.title,
        expiresAt: expiresAfterDays(validDays, Date.now()),
      }),
    );
  };

  if (issue.status === 'sent' && issue.last?.userId === member.uid) {
    return (
      <div className="offer-form" role="status">
        <p className="form-success">
          Sent {member.name} {issue.last.discountPercent} % off, until {formatFullTime(issue.last.expiresAt)}.
        </p>
        <button type="button" className="button button--small" onClick={onDone}>
          Done
        </button>
      </div>
    );
  }
  return (
    <form className="offer-form" onSubmit={submit} aria-label={`Offer for ${member.name}`} noValidate>
      <div className="offer-form__fields">
        <div className="field">
          <label htmlFor={ids.discount}>Discount (%)</label>
          <input
            id={ids.discount}
            inputMode="numeric"
            value={discount}
            onChange={(e) => setDiscount(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.days}>Valid for (days)</label>
          <input id={ids.days} inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.source}>For</label>
          <input
            id={ids.source}
            value={source}
            maxLength={LIMITS.offerSourceMax}
            onChange={(e) => setSource(e.target.value)}
          />
        </div>
      </div>
      {(problem || issue.status === 'failed') && (
        <p className="form-error" role="alert">
          {problem ?? issue.error}
        </p>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="button button--primary button--small"
          disabled={issue.status === 'sending'}
        >
          {issue.status === 'sending' ? 'Sending…' : 'Send offer'}
          <span className="visually-hidden"> to {member.name}</span>
        </button>
        <button type="button" className="button button--quiet button--small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
