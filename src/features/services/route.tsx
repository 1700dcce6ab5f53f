// `/services` (issue #6): the person's active offers from get_user_active_offers (discount, where it comes from,
// channel, status, a live countdown to expiresAt; expired ones drop out), their credits and passes, and, for a
// consultant, their services (their channels, each one service clients join by invitation) and the offers they
// issued. ARCHITECTURE.md leaves "services" open: docs/DECISIONS.md says why they are the channels.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import type { IssuedOffer, Offer } from '@core/model';
import { channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { overviewRequested, selectChannels, selectChannelTitles } from '@/store/channelsSlice';
import {
  activeOffersRequested,
  issuedOffersRequested,
  selectActiveOffers,
  selectIssuedOffers,
} from '@/store/offersSlice';
import { selectAuthStatus, selectIsConsultant, selectUser } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { Balances } from '@/ui/Balances';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { formatFullTime, formatRemaining, useNow } from '@/ui/time';
import './services.css';

const STATUS_WORDS: Record<Offer['status'], string> = {
  active: 'Active',
  used: 'Used',
  revoked: 'Withdrawn',
};

function OfferCard({
  offer,
  channelTitle,
  now,
}: {
  offer: Offer;
  channelTitle: string | undefined;
  now: number;
}) {
  const remaining = formatRemaining(offer.expiresAt, now);
  const soon = offer.expiresAt - now < 24 * 60 * 60 * 1000;
  return (
    <li className="card offer">
      <p className="offer__discount">
        <span className="offer__percent">{offer.discountPercent} %</span> off
      </p>
      <p className="offer__source">{offer.source}</p>
      <dl className="offer__facts">
        <div>
          <dt>Channel</dt>
          <dd>{channelTitle ?? 'A channel of yours'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{STATUS_WORDS[offer.status]}</dd>
        </div>
        <div>
          <dt>Ends in</dt>
          <dd className={soon ? 'offer__countdown offer__countdown--soon' : 'offer__countdown'}>
            <time dateTime={new Date(offer.expiresAt).toISOString()} title={formatFullTime(offer.expiresAt)}>
              {remaining}
            </time>
          </dd>
        </div>
      </dl>
    </li>
  );
}

function ActiveOffers() {
  const dispatch = useAppDispatch();
  const offers = useAppSelector(selectActiveOffers);
  const titles = useAppSelector(selectChannelTitles);
  const now = useNow(1_000);
  useEffect(() => {
    dispatch(activeOffersRequested());
  }, [dispatch]);
  // Expired ones drop out as the clock passes them, without asking the backend again.
  const live = offers.items.filter((offer) => offer.status === 'active' && offer.expiresAt > now);
  return (
    <section aria-labelledby="offers-title" className="services__section">
      <h2 id="offers-title">Your offers</h2>
      {offers.status === 'loading' || offers.status === 'idle' ? (
        <p className="muted" role="status">
          Loading your offers…
        </p>
      ) : offers.status === 'failed' ? (
        <div>
          <p className="form-error" role="alert">
            {offers.error}
          </p>
          <button type="button" className="button" onClick={() => dispatch(activeOffersRequested())}>
            Try again
          </button>
        </div>
      ) : live.length === 0 ? (
        <div className="card empty-state">
          <h3>No offers right now</h3>
          <p className="muted">
            When your consultant sends you an offer, it appears here with its discount and how long it lasts.
          </p>
        </div>
      ) : (
        <ul className="offers" aria-label="Active offers">
          {live.map((offer) => (
            <OfferCard
              key={offer.offeringId}
              offer={offer}
              channelTitle={titles[offer.channelId]}
              now={now}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function IssuedOffers() {
  const dispatch = useAppDispatch();
  const issued = useAppSelector(selectIssuedOffers);
  const titles = useAppSelector(selectChannelTitles);
  const now = useNow(60_000);
  useEffect(() => {
    dispatch(issuedOffersRequested());
  }, [dispatch]);
  const current = issued.items.filter((o: IssuedOffer) => o.expiresAt > now);
  return (
    <section aria-labelledby="issued-title" className="services__section">
      <h2 id="issued-title">Offers you issued</h2>
      {issued.status === 'loading' || issued.status === 'idle' ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : issued.status === 'failed' ? (
        <p className="form-error" role="alert">
          {issued.error}
        </p>
      ) : current.length === 0 ? (
        <p className="muted">None running. Send a member an offer from their channel’s Manage → Members.</p>
      ) : (
        <ul className="issued">
          {current.map((offer) => (
            <li key={offer.offeringId} className="issued__item">
              <strong>{offer.discountPercent} %</strong> for {offer.userName} in{' '}
              {titles[offer.channelId] ?? 'a channel'} ·{' '}
              <span className="muted">ends in {formatRemaining(offer.expiresAt, now)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Services() {
  const channels = useAppSelector(selectChannels);
  const isConsultant = useAppSelector(selectIsConsultant);
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (channels.status === 'idle') dispatch(overviewRequested());
  }, [dispatch, channels.status]);
  const services = isConsultant
    ? channels.items.filter((o) => o.channel.ownerId === user.authUser?.uid)
    : channels.items;
  return (
    <section className="screen services" aria-labelledby="services-title">
      <h1 id="services-title">Services</h1>
      <Balances />
      <ActiveOffers />
      {isConsultant && <IssuedOffers />}
      <section aria-labelledby="services-list-title" className="services__section">
        <h2 id="services-list-title">{isConsultant ? 'Your services' : 'Your consultants’ services'}</h2>
        {services.length === 0 ? (
          <p className="muted">
            {isConsultant
              ? 'Create a channel on the home screen for each service you offer.'
              : 'You have not joined a channel yet.'}
          </p>
        ) : (
          <ul className="service-list">
            {services.map(({ channel }) => (
              <li key={channel.id} className="card service">
                <h3>{channel.title}</h3>
                {channel.description && <p className="muted">{channel.description}</p>}
                <p className="service__meta">
                  {channel.members.length} member{channel.members.length === 1 ? '' : 's'} ·{' '}
                  <Link to={channelPath(channel.id)}>Open the channel</Link>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}

export function Component() {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'unknown' || status === 'loading') return <LoadingScreen inline />;
  if (status === 'signedOut') {
    return (
      <section className="screen" aria-labelledby="services-title">
        <h1 id="services-title">Services</h1>
        <AuthForm title="Sign in" lead="Sign in to see your offers and your consultant's services." />
      </section>
    );
  }
  return <Services />;
}
