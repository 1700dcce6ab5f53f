// A card the backend posted in a private consultation (core/cards.ts), drawn instead of its plain words: an offer
// ("20 % off Strategy session until Fri 4 Dec") with "Use this offer", which opens its booking on /services with the
// discount applied, or saying it can no longer be used; a booking's change with the session's time in the reader's
// own time zone and a way to it on /services.
import { Link } from 'react-router-dom';
import type { MessageCard } from '@core/model';
import { bookServicePath, servicesPath } from '@core/paths';
import { formatDay, formatSession } from '@core/times';
import { bookingCardText } from '@core/cards';
import { useAppSelector } from '@/store/hooks';
import { selectActiveOffers, selectReceivedOffers } from '@/store/offersSlice';
import { selectIsConsultant } from '@/store/userSlice';

const zone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

type OfferCard = Extract<MessageCard, { kind: 'offer' }>;
type BookingCard = Extract<MessageCard, { kind: 'booking' }>;

/** Whether an offer can still be used, as far as the reader knows: their active offers say it. */
function useOfferOpen(card: OfferCard, now: number): 'open' | 'expired' | 'closed' | 'unknown' {
  const active = useAppSelector(selectActiveOffers);
  if (card.expiresAt <= now) return 'expired';
  if (active.status !== 'loaded') return 'unknown';
  return active.items.some((o) => o.offeringId === card.offeringId && o.status === 'active')
    ? 'open'
    : 'closed';
}

const CLOSED_WORDS = {
  used: 'This offer was used.',
  revoked: 'This offer was withdrawn.',
  expired: 'This offer has expired.',
  active: 'This offer can no longer be used.',
} as const;

/** Which happened to an offer no longer open, from the reader's every offer (read with their active ones). */
function useClosedWords(card: OfferCard): string {
  const received = useAppSelector(selectReceivedOffers);
  const offer = received.find((o) => o.offeringId === card.offeringId);
  return CLOSED_WORDS[offer?.state ?? 'active'];
}

function OfferCardView({ card, own, now }: { card: OfferCard; own: boolean; now: number }) {
  const isConsultant = useAppSelector(selectIsConsultant);
  const state = useOfferOpen(card, now);
  const closedWords = useClosedWords(card);
  return (
    <div className="message-card message-card--offer" role="group" aria-label="Offer">
      <p className="message-card__title">
        <strong>{card.discountPercent} % off</strong> {card.serviceTitle}
      </p>
      <p className="muted">until {formatDay(card.expiresAt, zone(), now)}</p>
      {own || isConsultant ? null : state === 'open' || state === 'unknown' ? (
        <Link
          className="button button--primary button--small"
          to={bookServicePath(card.serviceId, card.offeringId)}
        >
          Use this offer
        </Link>
      ) : (
        <p className="message-card__state">{state === 'expired' ? CLOSED_WORDS.expired : closedWords}</p>
      )}
      {(own || isConsultant) && state === 'expired' && (
        <p className="message-card__state">This offer has expired.</p>
      )}
    </div>
  );
}

function BookingCardView({ card }: { card: BookingCard }) {
  const span = card.proposal && card.event === 'proposed' ? card.proposal : card;
  return (
    <div className="message-card message-card--booking" role="group" aria-label="Booking">
      <p className="message-card__title">{bookingCardText(card.event, card.serviceTitle)}</p>
      <p>{formatSession(span, zone())}</p>
      <Link to={servicesPath()}>See your sessions</Link>
    </div>
  );
}

export function MessageCardView({ card, own, now }: { card: MessageCard; own: boolean; now: number }) {
  return card.kind === 'offer' ? (
    <OfferCardView card={card} own={own} now={now} />
  ) : (
    <BookingCardView card={card} />
  );
}
