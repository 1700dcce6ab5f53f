// `/services`: for a client, their active offers from get_user_active_offers (discount, where it comes
// from, channel, status, a live countdown to expiresAt; expired ones drop out), their credits and passes, their
// consultants' services to book, their sessions and history (./Practice.tsx). For a consultant: the offers they
// issued, per client, each with its state (active, used, expired, withdrawn), the sessions to answer, their
// services, hours, earnings and history; not a client's balances or offers; an active offer can be withdrawn
// (./WithdrawOffer.tsx). Both: the channels they are in.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import type { IssuedOffer, Offer } from '@core/model';
import { offerStateAt } from '@core/offers';
import type { OfferState, ReceivedOffer } from '@core/offers';
import { bookServicePath, channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  overviewRequested,
  selectChannels,
  selectChannelTitles,
  selectOverview,
} from '@/store/channelsSlice';
import { isPrivateChannel } from '@core/privateChannels';
import {
  activeOffersRequested,
  issuedOffersRequested,
  selectActiveOffers,
  selectIssuedOffers,
  selectServicesNews,
  servicesNewsMarked,
} from '@/store/offersSlice';
import { selectPractice } from '@/store/practiceSlice';
import { selectAuthStatus, selectIsConsultant, selectUser } from '@/store/userSlice';
import { AuthForm } from '@/ui/AuthForm';
import { Balances } from '@/ui/Balances';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { formatFullTime, formatRemaining, useNow } from '@/ui/time';
import { Practice } from './Practice';
import { WithdrawOffer } from './WithdrawOffer';
import './services.css';
import './practice.css';

const STATUS_WORDS: Record<Offer['status'], string> = {
  active: 'Active',
  used: 'Used',
  revoked: 'Withdrawn',
};

/**
 * Where an offer leads: "Use this offer" opens its service's booking with the discount applied. An offer stored
 * before offers named a service has none to open; the words say where it still counts.
 */
function OfferUse({ offer }: { offer: ReceivedOffer | undefined }) {
  if (!offer) return null;
  if (offer.serviceId === undefined) {
    return (
      <p className="muted offer__use">
        This offer names no service: choose it in the booking of any of your consultant’s services.
      </p>
    );
  }
  return (
    <Link
      className="button button--primary button--small offer__use"
      to={bookServicePath(offer.serviceId, offer.offeringId)}
    >
      Use this offer<span className="visually-hidden"> on {offer.serviceTitle ?? 'its service'}</span>
    </Link>
  );
}

function OfferCard({
  offer,
  received,
  channelTitle,
  now,
}: {
  offer: Offer;
  received: ReceivedOffer | undefined;
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
      <p className="offer__source">
        {offer.source}
        {received?.serviceTitle !== undefined && <span className="muted"> · {received.serviceTitle}</span>}
      </p>
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
      <OfferUse offer={received} />
    </li>
  );
}

function ActiveOffers() {
  const dispatch = useAppDispatch();
  const offers = useAppSelector(selectActiveOffers);
  const titles = useAppSelector(selectChannelTitles);
  // The same offers with the service each is for (listMyOffers, loaded with the practice below).
  const received = useAppSelector(selectPractice).offers;
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
              received={received.find((r) => r.offeringId === offer.offeringId)}
              channelTitle={titles[offer.channelId]}
              now={now}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

const STATE_WORDS: Record<OfferState, string> = {
  active: 'Active',
  used: 'Used',
  expired: 'Expired',
  revoked: 'Withdrawn',
};

/** The issued offers grouped by client, clients in the order of their newest offer (the list is newest first). */
function byClient(
  offers: readonly IssuedOffer[],
): Array<{ userId: string; userName: string; offers: IssuedOffer[] }> {
  const groups = new Map<string, { userId: string; userName: string; offers: IssuedOffer[] }>();
  for (const offer of offers) {
    const group = groups.get(offer.userId) ?? { userId: offer.userId, userName: offer.userName, offers: [] };
    group.offers.push(offer);
    groups.set(offer.userId, group);
  }
  return [...groups.values()];
}

function IssuedOfferRow({
  offer,
  channelTitle,
  now,
}: {
  offer: IssuedOffer;
  channelTitle: string;
  now: number;
}) {
  const state = offerStateAt(offer, now);
  return (
    <li className="issued__item">
      <span className="issued__percent">{offer.discountPercent} %</span>
      <span className="issued__what">
        {offer.source} <span className="muted">in {channelTitle}</span>
      </span>
      <span className={`issued__state issued__state--${state}`}>{STATE_WORDS[state]}</span>
      <span className="muted issued__when">
        {state === 'active' ? (
          <>ends in {formatRemaining(offer.expiresAt, now)}</>
        ) : (
          <time dateTime={new Date(offer.expiresAt).toISOString()}>
            {state === 'expired' ? 'ended ' : 'until '}
            {formatFullTime(offer.expiresAt)}
          </time>
        )}
      </span>
      {state === 'active' && <WithdrawOffer offer={offer} />}
    </li>
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
  const clients = byClient(issued.items);
  return (
    <section aria-labelledby="issued-title" className="services__section">
      <h2 id="issued-title">Offers you issued</h2>
      {issued.status === 'loading' || issued.status === 'idle' ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : issued.status === 'failed' ? (
        <div>
          <p className="form-error" role="alert">
            {issued.error}
          </p>
          <button type="button" className="button" onClick={() => dispatch(issuedOffersRequested())}>
            Try again
          </button>
        </div>
      ) : clients.length === 0 ? (
        <div className="card empty-state">
          <h3>No offers yet</h3>
          <p className="muted">
            Send a client an offer from their channel: open it, then Manage → Members → Send offer.
          </p>
        </div>
      ) : (
        <ul className="issued-clients">
          {clients.map((client) => {
            const active = client.offers.filter((o) => offerStateAt(o, now) === 'active').length;
            return (
              <li key={client.userId} className="card issued-client">
                <h3 id={`issued-${client.userId}`}>
                  {client.userName}{' '}
                  <span className="muted issued-client__count">
                    {active} active of {client.offers.length}
                  </span>
                </h3>
                <ul className="issued" aria-labelledby={`issued-${client.userId}`}>
                  {client.offers.map((offer) => (
                    <IssuedOfferRow
                      key={offer.offeringId}
                      offer={offer}
                      channelTitle={titles[offer.channelId] ?? 'a channel'}
                      now={now}
                    />
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Services() {
  const channels = useAppSelector(selectChannels);
  const overview = useAppSelector(selectOverview);
  const isConsultant = useAppSelector(selectIsConsultant);
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (channels.status === 'idle') dispatch(overviewRequested());
  }, [dispatch, channels.status]);
  // Seen: the dot on Services goes, and news arriving while this screen is open is seen at once.
  const news = useAppSelector(selectServicesNews);
  useEffect(() => {
    if (news) dispatch(servicesNewsMarked(false));
  }, [dispatch, news]);
  // A private consultation is a conversation, not a service.
  const ordinary = overview.filter((o) => !isPrivateChannel(o.channel));
  const services = isConsultant ? ordinary.filter((o) => o.channel.ownerId === user.authUser?.uid) : ordinary;
  return (
    <section className="screen services" aria-labelledby="services-title">
      <h1 id="services-title">Services</h1>
      {isConsultant ? (
        <IssuedOffers />
      ) : (
        <>
          <Balances />
          <ActiveOffers />
        </>
      )}
      <Practice />
      <section aria-labelledby="services-list-title" className="services__section">
        <h2 id="services-list-title">{isConsultant ? 'Your channels' : 'Your consultants’ channels'}</h2>
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
                  <Link to={channelPath(channel.id)}>
                    Open the channel<span className="visually-hidden"> {channel.title}</span>
                  </Link>
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
