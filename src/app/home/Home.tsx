// A signed-in person's home `/`: balances, the invitations waiting for them, the push prompt, their channels and
// the open channel's conversation (`/?channel=<id>`, so a reload or a link keeps it open). Its own chunk
// (route.tsx loads it while the backend says who is there), so a visitor's first screen carries none of it.
import { Suspense, useEffect } from 'react';
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
  if (!gate.open || push.permission !== 'default' || push.promptDismissed) return null;
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
        <button type="button" className="button button--quiet" onClick={() => dispatch(promptDismissed())}>
          Not now
        </button>
      </div>
    </section>
  );
}

export function Home() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const role = useAppSelector(selectRole);
  const [params] = useSearchParams();
  // A malformed channel id in the URL opens nothing (it never reaches a backend).
  const openId = parseDocumentId(params.get(CHANNEL_PARAM));
  const name = user.nickname || user.authUser?.email || 'there';
  const hasChannels = useAppSelector((state) => selectOverview(state).length > 0);

  useEffect(() => {
    dispatch(channelOpened({ id: openId }));
  }, [dispatch, openId]);
  useEffect(() => () => void dispatch(channelOpened({ id: null })), [dispatch]);
  useEffect(() => {
    // Fetched ahead of the first channel the person opens; a failure here is retried by the lazy component.
    loadConversation().catch(() => undefined);
  }, []);

  return (
    <section
      // An open channel fills the window (main.css: .screen--fill): the composer stays on screen.
      className={openId ? 'screen screen--fill home home--conversation' : 'screen home'}
      aria-labelledby="home-title"
    >
      <div className="home__header">
        <div>
          <p className="eyebrow">
            <span className="badge">{ROLE_NAMES[role]}</span>
          </p>
          <h1 id="home-title">Hello, {name}</h1>
        </div>
        <Balances />
      </div>
      <PushPrompt />
      <InvitationsForYou InvitationsCard={InvitationsCard} />
      <DroppedNotice />
      <div className={openId ? 'workspace workspace--open' : 'workspace'}>
        <ChannelList openId={openId} NewChannelForm={NewChannelForm} Search={SearchPanel} />
        {openId ? (
          <Suspense
            fallback={
              <div className="workspace__placeholder card">
                <p className="muted" role="status">
                  Loading…
                </p>
              </div>
            }
          >
            <Conversation key={openId} channelId={openId} ManagePanel={ManagePanel} />
          </Suspense>
        ) : (
          hasChannels && (
            <div className="workspace__placeholder card">
              <p className="muted">Choose a channel to read and write its messages.</p>
            </div>
          )
        )}
      </div>
      <div className="home__actions">
        <Link className="button" to="/services">
          Offers and services
        </Link>
        <Link className="button" to="/settings">
          Settings
        </Link>
        <InstallButton />
        <Link className="button button--quiet" to="/logout">
          Sign out
        </Link>
      </div>
    </section>
  );
}
