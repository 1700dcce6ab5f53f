// A person's sessions, upcoming and past, in their own time zone, each with the steps they may take now
// (core/bookings.ts decides; the backend refuses the rest with words shown here). The 24-hour rule is said before a
// client cancels, so nobody learns it from a kept price. Before the backend answers (or offline) the upcoming ones
// may be those kept on this device, said to be as of their time; the past ones are then unknown, never "none".
import { useState } from 'react';
import type { Booking, BookingState } from '@core/model';
import { FREE_CANCELLATION_MS } from '@core/bookings';
import { formatSession } from '@core/times';
import { selectIsOnline } from '@/store/appSlice';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { bookingStepRequested, selectPractice } from '@/store/practiceSlice';
import type { BookingStep } from '@/store/practiceSlice';
import { selectUid } from '@/store/userSlice';
import { asOfWords } from '@/ui/Balances';
import { useNow } from '@/ui/time';
import { clientTimeZone } from './BookingPanel';

const STATE_WORDS: Record<BookingState, string> = {
  requested: 'Waiting for the consultant',
  confirmed: 'Confirmed',
  done: 'Done',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

/** A booking's state in words for one of its two people: a request waits for the consultant, who is "you" to them. */
function stateWords(state: BookingState, mine: 'client' | 'consultant'): string {
  return state === 'requested' && mine === 'consultant' ? 'Waiting for you to confirm' : STATE_WORDS[state];
}

function paymentWords(booking: Booking): string {
  const { payment } = booking;
  const what =
    payment.method === 'pass'
      ? 'a pass'
      : `${payment.amount} ${payment.amount === 1 ? 'credit' : 'credits'}` +
        (payment.discountPercent ? ` (${payment.discountPercent} % off)` : '');
  const status = { held: 'held', captured: 'paid', released: 'given back', refunded: 'refunded' }[
    payment.status
  ];
  return `${what}, ${status}`;
}

/** What a client is told before cancelling: whether the price comes back. */
export function cancelWords(booking: Booking, now: number): string {
  if (booking.state === 'requested') return 'Cancel this request? The held price comes back to you.';
  if (booking.startsAt - now > FREE_CANCELLATION_MS) {
    return 'Cancel this session? It is more than 24 hours away, so the price comes back to you.';
  }
  return 'Cancel this session? It starts within 24 hours, so the price stays with your consultant (they may refund it).';
}

/**
 * Who the session is with, as the reader calls them: a consultant's list tells two clients' requests apart by it.
 * A name the backend does not have (a booking from before names were kept) reads as "A client", never as an id.
 */
export function otherPartyName(booking: Booking, reader: 'consultant' | 'client'): string {
  return reader === 'consultant'
    ? booking.clientName || 'A client'
    : booking.consultantName || 'Your consultant';
}

function toLocalInput(instant: number): string {
  const d = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * One session. `kept`: read from this device while the backend has not answered: its steps wait for the backend's
 * word on it (offline, the card says that a change needs a connection, instead of buttons that would fail; online, the
 * section's "Updating" says it).
 */
function BookingItem({ booking, now, kept = false }: { booking: Booking; now: number; kept?: boolean }) {
  const dispatch = useAppDispatch();
  const uid = useAppSelector(selectUid);
  const { change, changeError, done } = useAppSelector(selectPractice);
  const [confirming, setConfirming] = useState<'cancel' | null>(null);
  const [proposing, setProposing] = useState<string | null>(null);
  const zone = clientTimeZone();
  const mine = booking.consultantId === uid ? 'consultant' : 'client';
  const online = useAppSelector(selectIsOnline);
  const busy = change?.kind === 'step' && change.targetId === booking.id;
  const refusal =
    changeError?.kind === 'step' && changeError.targetId === booking.id ? changeError.message : null;
  const said = done?.kind === 'step' && done.targetId === booking.id ? done.words : null;
  const step = (s: BookingStep, startsAt?: number) =>
    dispatch(bookingStepRequested({ bookingId: booking.id, step: s, ...(startsAt ? { startsAt } : {}) }));
  const open = booking.state === 'requested' || booking.state === 'confirmed';
  const started = booking.startsAt <= now;
  const button = (label: string, s: BookingStep, primary = false) => (
    <button
      type="button"
      className={primary ? 'button button--primary' : 'button'}
      disabled={busy}
      onClick={() => step(s)}
    >
      {label}
    </button>
  );

  const who = otherPartyName(booking, mine);
  return (
    <li
      className="card booking"
      aria-label={`${booking.serviceTitle} with ${who}, ${stateWords(booking.state, mine)}`}
    >
      <h4>
        {booking.serviceTitle} <span className="booking__with">with {who}</span>
      </h4>
      <p>{formatSession(booking, zone)}</p>
      <p className={`booking__state booking__state--${booking.state}`}>
        {stateWords(booking.state, mine)}
        {booking.lateCancellation ? ' late: the price was kept' : ''} · {paymentWords(booking)}
      </p>
      {booking.proposal && (
        <p>
          {mine === 'client' ? 'Your consultant proposes' : 'You proposed'}:{' '}
          <strong>{formatSession(booking.proposal, zone)}</strong>
        </p>
      )}
      {kept ? (
        !online && <p className="muted">Changing a session needs a connection.</p>
      ) : (
        <div className="form-actions">
          {mine === 'consultant' && booking.state === 'requested' && !started && (
            <>
              {button('Confirm', 'confirm', true)}
              {button('Decline', 'decline')}
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => setProposing(toLocalInput(booking.startsAt))}
              >
                Propose another time
              </button>
            </>
          )}
          {mine === 'consultant' &&
            booking.state === 'confirmed' &&
            started &&
            button('Mark done', 'complete', true)}
          {mine === 'consultant' &&
            booking.lateCancellation &&
            booking.payment.status === 'captured' &&
            button('Refund', 'refund')}
          {mine === 'client' && booking.proposal && open && (
            <>
              {button('Accept the new time', 'acceptProposal', true)}
              {button('Keep my time', 'declineProposal')}
            </>
          )}
          {open &&
            !started &&
            (mine === 'client' || booking.state === 'confirmed') &&
            confirming === null && (
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => setConfirming('cancel')}
              >
                {booking.state === 'requested' ? 'Cancel request' : 'Cancel session'}
              </button>
            )}
        </div>
      )}
      {proposing !== null && (
        <form
          className="booking__propose"
          onSubmit={(e) => {
            e.preventDefault();
            const at = new Date(proposing).getTime();
            if (Number.isFinite(at)) step('propose', at);
            setProposing(null);
          }}
        >
          <label className="field">
            <span>New time (your time zone, {zone})</span>
            <input
              type="datetime-local"
              step={900}
              value={proposing}
              onChange={(e) => setProposing(e.target.value)}
              required
            />
          </label>
          <div className="form-actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              Propose
            </button>
            <button type="button" className="button" onClick={() => setProposing(null)}>
              Back
            </button>
          </div>
        </form>
      )}
      {confirming === 'cancel' && (
        <div className="booking__confirm" role="group" aria-label="Cancel this booking">
          <p>
            {mine === 'client'
              ? cancelWords(booking, now)
              : 'Cancel this session? Your client gets the whole price back.'}
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button button--danger"
              disabled={busy}
              onClick={() => {
                step('cancel');
                setConfirming(null);
              }}
            >
              Yes, cancel
            </button>
            <button type="button" className="button" onClick={() => setConfirming(null)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      {said && (
        <p className="muted" role="status">
          {said}.
        </p>
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </li>
  );
}

export function BookingList() {
  const { bookings, asOf } = useAppSelector(selectPractice);
  const online = useAppSelector(selectIsOnline);
  const now = useNow(60_000);
  return (
    <section aria-labelledby="sessions-title" className="services__section">
      <h2 id="sessions-title">Your sessions</h2>
      {asOf !== undefined && (
        <p className="muted services__as-of" role="status">
          {asOfWords(asOf, online)}
        </p>
      )}
      <h3 id="upcoming-title">Upcoming</h3>
      {bookings.upcoming.length === 0 ? (
        <p className="muted">No upcoming sessions.</p>
      ) : (
        <ul className="bookings" aria-labelledby="upcoming-title">
          {bookings.upcoming.map((b) => (
            <BookingItem key={b.id} booking={b} now={now} kept={asOf !== undefined} />
          ))}
        </ul>
      )}
      <h3 id="past-title">Past</h3>
      {asOf !== undefined ? (
        <p className="muted">{online ? 'Loading your past sessions…' : 'Unknown while offline.'}</p>
      ) : bookings.past.length === 0 ? (
        <p className="muted">No past sessions yet.</p>
      ) : (
        <ul className="bookings" aria-labelledby="past-title">
          {bookings.past.map((b) => (
            <BookingItem key={b.id} booking={b} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}
