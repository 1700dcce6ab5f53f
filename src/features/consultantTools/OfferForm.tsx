// A channel's owner sends one member an offer: which of their services it is for, a discount, how many days it
// runs and its words (the service's title unless changed). The numbers are checked with core's rules before anything
// is sent; the backend checks them again. The services come from the practice's load (src/store/practiceSlice.ts).
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { VALIDITY_DAYS, expiresAfterDays, isValidityDays } from '@core/expiry';
import { LIMITS } from '@core/limits';
import type { Channel, ChannelMember } from '@core/model';
import { isDiscountPercent } from '@core/offers';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { offerIssueDismissed, offerIssueRequested, selectOfferIssue } from '@/store/offersSlice';
import { practiceRequested, selectPractice } from '@/store/practiceSlice';
import { selectUid } from '@/store/userSlice';
import { formatFullTime } from '@/ui/time';
import { readWholeNumber } from './formNumbers';

/** The clock when the form is sent (outside render: the offer runs from the moment it is sent). */
const clockNow = (): number => Date.now();

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
  const ids = { discount: useId(), days: useId(), source: useId(), service: useId() };
  const uid = useAppSelector(selectUid);
  const practice = useAppSelector(selectPractice);
  const services = practice.services.filter((s) => s.consultantId === uid && s.status === 'active');
  const [serviceId, setServiceId] = useState('');
  const chosen = services.find((s) => s.id === serviceId) ?? services[0];
  const [discount, setDiscount] = useState('10');
  const [days, setDays] = useState('7');
  const [source, setSource] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void dispatch(offerIssueDismissed()), [dispatch]);
  useEffect(() => {
    if (!uid || practice.status !== 'idle') return;
    // The practice's saga is started by the offers saga (src/sagas/offersSaga.ts): an offers action first, so a
    // consultant who has asked for no offer yet in this session still gets their services.
    dispatch(offerIssueDismissed());
    dispatch(practiceRequested({ consultantIds: [uid], isConsultant: true }));
  }, [dispatch, uid, practice.status]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const percent = readWholeNumber(discount);
    if (!isDiscountPercent(percent))
      return setProblem(`A discount is a whole percent from ${LIMITS.discountMin} to ${LIMITS.discountMax}.`);
    const validDays = readWholeNumber(days);
    if (!isValidityDays(validDays))
      return setProblem(`An offer lasts ${VALIDITY_DAYS.min} to ${VALIDITY_DAYS.max} days.`);
    if (!chosen) return setProblem('Offer a service on Services first: an offer is for one of them.');
    setProblem(null);
    dispatch(
      offerIssueRequested({
        channelId: channel.id,
        userId: member.uid,
        serviceId: chosen.id,
        discountPercent: percent,
        source: source?.trim() || chosen.title,
        expiresAt: expiresAfterDays(validDays, clockNow()),
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
          <label htmlFor={ids.service}>Service</label>
          {practice.status === 'loaded' && services.length === 0 ? (
            <p id={ids.service} className="muted">
              You offer no service yet: create one on Services first.
            </p>
          ) : (
            <select id={ids.service} value={chosen?.id ?? ''} onChange={(e) => setServiceId(e.target.value)}>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title} · {s.priceCredits} {s.priceCredits === 1 ? 'credit' : 'credits'}
                </option>
              ))}
            </select>
          )}
        </div>
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
            value={source ?? chosen?.title ?? channel.title}
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
