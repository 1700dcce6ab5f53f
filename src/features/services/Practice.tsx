// The practice on /services. A client: their consultants' services to book (a service's "Book" opens its booking;
// "Use this offer" arrives as ?offer=…&service=… and opens it with the offer applied), their sessions, their
// history. A consultant: the requests and sessions to answer, their services and hours, earnings, history.
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Service } from '@core/model';
import { OFFER_PARAM, SERVICE_PARAM } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectOverview } from '@/store/channelsSlice';
import { practiceClosed, practiceRequested, selectPractice } from '@/store/practiceSlice';
import { selectIsConsultant, selectUid } from '@/store/userSlice';
import { BookingList } from './BookingList';
import { BookingPanel } from './BookingPanel';
import { HoursEditor } from './HoursEditor';
import { EarningsSummary, LedgerHistory } from './LedgerHistory';
import { ServiceEditor } from './ServiceEditor';

/** The consultants whose services a person sees: the owners of their channels (a consultant: themselves). */
function useConsultantIds(): string[] {
  const uid = useAppSelector(selectUid);
  const isConsultant = useAppSelector(selectIsConsultant);
  const overview = useAppSelector(selectOverview);
  const owners = overview.map((o) => o.channel.ownerId);
  const key = isConsultant
    ? (uid ?? '')
    : [...new Set(owners)]
        .filter((o) => o && o !== uid)
        .sort()
        .join(',');
  return useMemo(() => (key ? key.split(',') : []), [key]);
}

function BookServices({ services }: { services: readonly Service[] }) {
  const { offers, done } = useAppSelector(selectPractice);
  const [params, setParams] = useSearchParams();
  const wanted = params.get(SERVICE_PARAM);
  // Keyed by the wanted service (below), so a new "Use this offer" opens its service afresh.
  const [open, setOpen] = useState<string | null>(wanted);
  // A booking made closes its panel (the notice above and Upcoming say what happened).
  const [seen, setSeen] = useState(done);
  if (seen !== done) {
    setSeen(done);
    if (done?.kind === 'book') setOpen(null);
  }
  const close = () => {
    setOpen(null);
    if (params.has(OFFER_PARAM) || params.has(SERVICE_PARAM)) setParams({}, { replace: true });
  };
  return (
    <section aria-labelledby="book-title" className="services__section">
      <h2 id="book-title">Book a session</h2>
      {done?.kind === 'book' && (
        <p className="notice" role="status">
          {done.words}. Your consultant is asked to confirm; it is under Upcoming meanwhile.
        </p>
      )}
      {services.length === 0 ? (
        <p className="muted">Your consultants offer no services yet.</p>
      ) : (
        <ul className="service-list">
          {services.map((service) => (
            <li key={service.id} className="card service">
              <h3>{service.title}</h3>
              {service.description && <p className="muted">{service.description}</p>}
              <p className="service__meta">
                {service.durationMinutes} min · {service.priceCredits}{' '}
                {service.priceCredits === 1 ? 'credit' : 'credits'}
              </p>
              {open === service.id ? (
                <BookingPanel
                  service={service}
                  offers={offers}
                  {...(params.get(OFFER_PARAM) ? { initialOfferId: params.get(OFFER_PARAM) ?? '' } : {})}
                  onClose={close}
                />
              ) : (
                <button type="button" className="button button--primary" onClick={() => setOpen(service.id)}>
                  Book<span className="visually-hidden"> {service.title}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Practice() {
  const dispatch = useAppDispatch();
  const isConsultant = useAppSelector(selectIsConsultant);
  const uid = useAppSelector(selectUid);
  const practice = useAppSelector(selectPractice);
  const consultantIds = useConsultantIds();
  const [params] = useSearchParams();
  useEffect(() => {
    dispatch(practiceRequested({ consultantIds, isConsultant }));
  }, [dispatch, consultantIds, isConsultant]);
  // Words said here are said once: leaving the screen has them seen.
  useEffect(() => () => void dispatch(practiceClosed()), [dispatch]);

  // Not answered (yet, or offline) with bookings kept on this device: those, as of their time (./BookingList.tsx).
  if (practice.asOf !== undefined && practice.status !== 'loaded') return <BookingList />;
  if (practice.status === 'idle' || practice.status === 'loading') {
    return (
      <p className="muted services__section" role="status">
        Loading your sessions…
      </p>
    );
  }
  if (practice.status === 'failed') {
    return (
      <div className="services__section">
        <p className="form-error" role="alert">
          {practice.error}
        </p>
        <button
          type="button"
          className="button"
          onClick={() => dispatch(practiceRequested({ consultantIds, isConsultant }))}
        >
          Try again
        </button>
      </div>
    );
  }
  if (isConsultant) {
    const own = practice.services.filter((s) => s.consultantId === uid);
    return (
      <>
        <BookingList />
        <ServiceEditor services={own} />
        <HoursEditor
          key={(uid && practice.hours[uid]?.updatedAt) ?? 'none'}
          availability={uid ? (practice.hours[uid] ?? null) : null}
        />
        <EarningsSummary earnings={practice.earnings} />
        <LedgerHistory ledger={practice.ledger} forConsultant />
      </>
    );
  }
  const bookable = practice.services.filter((s) => s.status === 'active');
  const wantedService = params.get(SERVICE_PARAM);
  return (
    <>
      <BookServices key={wantedService ?? ''} services={bookable} />
      <BookingList />
      <LedgerHistory ledger={practice.ledger} />
    </>
  );
}
