// A signed-in person's home `/`, a messenger: on the list side their greeting and balances, the push prompt, the
// invitations waiting for them, their channels and the way to the rest of the app; beside it (or on a phone
// instead of it) the open channel's conversation (`/?channel=<id>`, so a reload or a link keeps it open). Its own chunk
// (route.tsx loads it while the backend says who is there), so a visitor's first screen carries none of it.
import { Suspense, useEffect, useState } from 'react';
import { browserLocalStorage } from '@/platform/storage';
import { firstScreenDrawn, whenFirstScreenDrawn } from '@/platform/firstScreen';
import { readPushPromptDismissed, rememberPushPromptDismissed } from '@/platform/deviceChoices';
import { Link, useSearchParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import { CHANNEL_PARAM } from '@core/paths';
import { channelOpened, selectOverview } from '@/store/channelsSlice';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectRole, selectUser } from '@/store/userSlice';
import { permissionRequested, promptDismissed, selectPush, selectPushGate } from '@/store/pushSlice';
import { ROLE_NAMES } from '@/ui/roles';
import { Balances } from '@/ui/Balances';
import { lazyComponent } from '@/app/lazyComponent';
import { ChannelList } from '@/features/channels/ChannelList';
import { InvitationsForYou } from '@/features/invitations/InvitationsForYou';
import { DroppedNotice } from '@/ui/LiveNotices';
import { InstallButton } from './InstallButton';
import './home.css';

// The home composes the domains (none imports another) and decides what loads when. The open channel's
// conversation loads in its own chunk, asked for as soon as the home shows, so it is there by the time a channel
// opens.
const loadConversation = () =>
  import(/* webpackChunkName: "conversation-view" */ '@/features/conversation/Conversation');
const Conversation = lazyComponent(() => loadConversation().then((m) => m.Conversation));
const loadConversationSearch = () =>
  import(/* webpackChunkName: "conversation-view" */ '@/features/conversation/SearchPanel');
// Search across the person's channels comes with the conversation's chunk.
const SearchPanel = lazyComponent(() => loadConversationSearch().then((m) => m.SearchPanel));
// A consultant's tools (a new channel; managing one) load only when a consultant opens them.
const NewChannelForm = lazyComponent(() =>
  import(/* webpackChunkName: "consultant-tools" */ '@/features/consultantTools/NewChannelForm').then(
    (m) => m.NewChannelForm,
  ),
);
const ManagePanel = lazyComponent(() =>
  import(/* webpackChunkName: "consultant-tools" */ '@/features/consultantTools/ManagePanel').then(
    (m) => m.ManagePanel,
  ),
);
// Most people have no invitation waiting: the card loads when one is there.
const InvitationsCard = lazyComponent(() =>
  import(/* webpackChunkName: "invitations-for-you" */ '@/features/invitations/InvitationsCard').then(
    (m) => m.default,
  ),
);

/**
 * spec §4: asking for notification permission happens only from a user gesture; this card is the main screen's
 * one place to ask (settings → notifications is the other). It shows only while asking can help.
 */
function PushPrompt() {
  const dispatch = useAppDispatch();
  const gate = useAppSelector(selectPushGate);
  const push = useAppSelector(selectPush);
  // "Not now" is remembered on this device: the card stays away after a reload too.
  const [dismissedHere, setDismissedHere] = useState(() => readPushPromptDismissed(browserLocalStorage()));
  if (!gate.open || push.permission !== 'default' || push.promptDismissed || dismissedHere) return null;
  return (
    <section className="card push-prompt" aria-labelledby="push-prompt-title">
      <div>
        <h2 id="push-prompt-title">Get notified on this device</h2>
        <p className="muted">New messages and offers from your channels, even when QuPM is closed.</p>
      </div>
      <div className="push-prompt__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => dispatch(permissionRequested())}
        >
          Turn on notifications
        </button>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            rememberPushPromptDismissed(browserLocalStorage());
            setDismissedHere(true);
            dispatch(promptDismissed());
          }}
        >
          Not now
        </button>
      </div>
    </section>
  );
}

/**
 * The list side's greeting: who is signed in, their role, and their balances when they hold any (clients do;
 * a consultant's or an admin's would always read 0). It is the page's h1 while no channel is open; beside an
 * open channel the conversation's title is the h1.
 */
function Greeting({ heading }: { heading: boolean }) {
  const user = useAppSelector(selectUser);
  const role = useAppSelector(selectRole);
  const name = user.nickname || user.authUser?.email || 'there';
  const Title = heading ? 'h1' : 'p';
  const holdsBalances = role === 'user' || user.credits > 0 || user.passCount > 0;
  return (
    <div className="home__header">
      <div className="home__greeting">
        <span className="badge">{ROLE_NAMES[role]}</span>
        <Title id="home-title" className="home__title">
          Hello, <bdi>{name}</bdi>
        </Title>
      </div>
      {holdsBalances && <Balances />}
    </div>
  );
}

/** Where the rest of the app is, at the foot of the list (WhatsApp and Slack keep these in the list's menu). */
function HomeActions() {
  return (
    <nav className="home__actions" aria-label="More">
      <Link className="button button--small" to="/services">
        Offers and services
      </Link>
      <Link className="button button--small" to="/settings">
        Settings
      </Link>
      <InstallButton />
      <Link className="button button--small button--quiet" to="/logout">
        Sign out
      </Link>
    </nav>
  );
}

/**
 * The signed-in home is a messenger (ARCHITECTURE.md): the list side (greeting, cards, channels, the way to the
 * rest of the app) and the open conversation, side by side on a wide window, one at a time on a phone (the
 * conversation then has the whole screen and a back button). Nothing sits above a conversation.
 */
export function Home() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  // A malformed channel id in the URL opens nothing (it never reaches a backend).
  const openId = parseDocumentId(params.get(CHANNEL_PARAM));
  const hasChannels = useAppSelector((state) => selectOverview(state).length > 0);

  useEffect(() => {
    dispatch(channelOpened({ id: openId }));
  }, [dispatch, openId]);
  useEffect(() => () => void dispatch(channelOpened({ id: null })), [dispatch]);
  useEffect(() => {
    // The home is drawn: what waited for the first screen (Firestore's SDK on Firebase) may load now.
    firstScreenDrawn();
    // Fetched ahead of the first channel the person opens, once the home is painted (it would compete with what
    // the home needs); a failure here is retried by the lazy component.
    void whenFirstScreenDrawn().then(() => loadConversation().catch(() => undefined));
  }, []);

  return (
    <div
      className={openId ? 'screen screen--fill messenger messenger--open' : 'screen screen--fill messenger'}
    >
      <section className="messenger__list" aria-labelledby={openId ? 'channels-title' : 'home-title'}>
        <Greeting heading={!openId} />
        <PushPrompt />
        <InvitationsForYou InvitationsCard={InvitationsCard} />
        <DroppedNotice />
        <ChannelList openId={openId} NewChannelForm={NewChannelForm} Search={SearchPanel} />
        <HomeActions />
      </section>
      <div className="messenger__main">
        {openId ? (
          <Suspense
            fallback={
              <div className="workspace__placeholder">
                <p className="muted" role="status">
                  Loading…
                </p>
              </div>
            }
          >
            <Conversation key={openId} channelId={openId} ManagePanel={ManagePanel} />
          </Suspense>
        ) : (
          <div className="workspace__placeholder">
            <p className="muted">
              {hasChannels
                ? 'Choose a channel to read and write its messages.'
                : 'Your conversations show here.'}
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
