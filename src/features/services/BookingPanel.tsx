// Booking one service: the consultant's free times of the next two weeks in the client's own time zone, grouped
// by day; paying with credits or a pass; an active offer for the service applied once (chosen here, or arriving
// with "Use this offer"). The price shown is the one sent as expectedCredits: the backend refuses another.
import { useEffect, useMemo, useState } from 'react';
import type { Service } from '@core/model';
import type { ReceivedOffer } from '@core/offers';
import { discountedPrice } from '@core/pricing';
import { formatClock, formatDay, formatSession, groupByLocalDay } from '@core/times';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { bookingClosed, bookingRequested, selectPractice, slotsRequested } from '@/store/practiceSlice';
import { selectUser } from '@/store/userSlice';
import { useNow } from '@/ui/time';

/** How far ahead the panel shows free times (the backend answers at most 31 days at once). */
const DAYS_SHOWN = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export function clientTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function credits(n: number): string {
  return `${n} ${n === 1 ? 'credit' : 'credits'}`;
}

export function BookingPanel({
  service,
  offers,
  initialOfferId,
  onClose,
}: {
  service: Service;
  offers: readonly ReceivedOffer[];
  initialOfferId?: string;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const { slots, change, changeError } = useAppSelector(selectPractice);
  const { credits: balance, passCount } = useAppSelector(selectUser);
  const zone = useMemo(() => clientTimeZone(), []);
  const now = useNow(60_000);
  const usable = offers.filter(
    (o) =>
      o.state === 'active' &&
      (o.serviceId === undefined ? o.consultantId === service.consultantId : o.serviceId === service.id),
  );
  const [startsAt, setStartsAt] = useState<number | null>(null);
  const [method, setMethod] = useState<'credits' | 'pass'>('credits');
  const wanted = initialOfferId && usable.some((o) => o.offeringId === initialOfferId) ? initialOfferId : '';
  const [offerId, setOfferId] = useState<string>(wanted);
  // The offer asked for is applied once it is usable: a "Use this offer" of another offer, or one that arrived live
  // after the panel opened; the person's own choice stands otherwise.
  const [applied, setApplied] = useState<string>(wanted);
  if (wanted !== applied) {
    setApplied(wanted);
    if (wanted) setOfferId(wanted);
  }
  useEffect(() => {
    const from = Date.now();
    dispatch(slotsRequested({ serviceId: service.id, from, to: from + DAYS_SHOWN * DAY_MS }));
    return () => {
      dispatch(bookingClosed());
    };
  }, [dispatch, service.id]);

  const offer = usable.find((o) => o.offeringId === offerId);
  const price = offer ? discountedPrice(service.priceCredits, offer.discountPercent) : service.priceCredits;
  const days = slots.serviceId === service.id ? groupByLocalDay(slots.items, zone) : [];
  const [day, setDay] = useState<string | null>(null);
  const shownDay = days.find((d) => d.day === day) ?? days[0];
  const booking = change?.kind === 'book' && change.targetId === service.id;
  const refusal =
    changeError?.kind === 'book' && changeError.targetId === service.id ? changeError.message : null;
  const short = method === 'credits' ? price > balance : passCount < 1;
  const titleId = `book-${service.id}`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (startsAt === null) return;
    dispatch(
      bookingRequested({
        serviceId: service.id,
        startsAt,
        paymentMethod: method,
        clientTimeZone: zone,
        ...(method === 'credits' ? { expectedCredits: price } : {}),
        ...(method === 'credits' && offer ? { offerId: offer.offeringId } : {}),
      }),
    );
  };

  return (
    <form className="booking-panel" aria-labelledby={titleId} onSubmit={submit}>
      <h4 id={titleId}>Book “{service.title}”</h4>
      <p className="muted">Times are in your time zone, {zone}.</p>
      {slots.status === 'loading' || slots.status === 'idle' ? (
        <p className="muted" role="status">
          Looking for free times…
        </p>
      ) : slots.status === 'failed' ? (
        <p className="form-error" role="alert">
          {slots.error}
        </p>
      ) : days.length === 0 ? (
        <p className="muted" role="status">
          {slots.noHours ??
            `No free time in the next ${DAYS_SHOWN} days. Ask your consultant in your conversation.`}
        </p>
      ) : (
        <>
          <label className="field">
            <span>Day</span>
            <select
              value={shownDay?.day ?? ''}
              onChange={(e) => {
                setDay(e.target.value);
                setStartsAt(null);
              }}
            >
              {days.map((d) => (
                <option key={d.day} value={d.day}>
                  {formatDay(d.spans[0]?.startsAt ?? 0, zone, now)} ({d.spans.length} free)
                </option>
              ))}
            </select>
          </label>
          <fieldset className="slot-grid">
            <legend>Time</legend>
            {shownDay?.spans.map((slot) => (
              <label key={slot.startsAt} className="slot">
                <input
                  type="radio"
                  name={`slot-${service.id}`}
                  value={slot.startsAt}
                  checked={startsAt === slot.startsAt}
                  onChange={() => setStartsAt(slot.startsAt)}
                />
                <span>{formatClock(slot.startsAt, zone)}</span>
              </label>
            ))}
          </fieldset>
        </>
      )}
      <fieldset className="pay">
        <legend>Pay with</legend>
        <label>
          <input
            type="radio"
            name={`pay-${service.id}`}
            checked={method === 'credits'}
            onChange={() => setMethod('credits')}
          />{' '}
          Credits: {credits(price)}
          {offer && price !== service.priceCredits && (
            <span className="muted">
              {' '}
              (was {service.priceCredits}, {offer.discountPercent} % off)
            </span>
          )}{' '}
          <span className="muted">· you have {balance}</span>
        </label>
        <label>
          <input
            type="radio"
            name={`pay-${service.id}`}
            checked={method === 'pass'}
            onChange={() => setMethod('pass')}
          />{' '}
          A pass <span className="muted">· you have {passCount}</span>
        </label>
      </fieldset>
      {usable.length > 0 && (
        <label className="field">
          <span>Offer</span>
          <select value={offerId} onChange={(e) => setOfferId(e.target.value)} disabled={method === 'pass'}>
            <option value="">No offer</option>
            {usable.map((o) => (
              <option key={o.offeringId} value={o.offeringId}>
                {o.discountPercent} % off · {o.source}
              </option>
            ))}
          </select>
          {method === 'pass' && offer && (
            <span className="muted">
              A pass pays for the whole session, so the offer stays for another time.
            </span>
          )}
        </label>
      )}
      {startsAt !== null && (
        <p className="booking-panel__summary">
          {formatSession({ startsAt, endsAt: startsAt + service.durationMinutes * 60_000 }, zone)}
        </p>
      )}
      {short && (
        <p className="form-error" role="status">
          {method === 'credits'
            ? `This session costs ${credits(price)} and you have ${balance}.`
            : 'You have no pass left.'}
        </p>
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <p className="muted">
        The price is held when you ask and taken when your consultant confirms. Cancel more than 24 hours
        before the start and it comes back.
      </p>
      <div className="form-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={startsAt === null || short || booking}
        >
          {booking ? 'Asking…' : 'Request this time'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}
