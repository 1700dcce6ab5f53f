// The main screen `/`. Signed out: what QuPM is, and sign in / sign up. Signed in: the person's home: balances,
// the invitations waiting for them, their channels and the open channel's conversation (`/?channel=<id>`, so a
// reload or a link keeps it open).
import { Suspense, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { parseDocumentId } from '@core/ids';
import { CHANNEL_PARAM } from '@core/paths';
import { channelOpened, selectOverview } from '@/store/channelsSlice';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  installRequested,
  selectInstallPromptAvailable,
  selectIsInstalled,
  selectOfflineReady,
  selectPlatform,
} from '@/store/appSlice';
import { selectAuthStatus, selectRole, selectUser } from '@/store/userSlice';
import { permissionRequested, promptDismissed, selectPush, selectPushGate } from '@/store/pushSlice';
import { AuthForm } from '@/ui/AuthForm';
import { ROLE_NAMES } from '@/ui/roles';
import { Balances } from '@/ui/Balances';
import { LoadingScreen } from '@/ui/LoadingScreen';
import { ChannelList } from './ChannelList';
import { InvitationsForYou } from './InvitationsForYou';
import { DroppedNotice } from './LiveNotices';
import './main.css';
import { lazyComponent } from '@/app/lazyComponent';

// The open channel's conversation loads in its own chunk, asked for as soon as someone is signed in (Home), so it
// is there by the time a channel opens; the first screen of a signed-out visitor never needs it, and the shell
// stays within its 150 KB (docs/DECISIONS.md "Issue #12: domain rules once").
const loadConversation = () => import(/* webpackChunkName: "conversation-view" */ './Conversation');
const Conversation = lazyComponent(() => loadConversation().then((m) => m.Conversation));

/**
 * Installing QuPM: the browser's own prompt where there is one (beforeinstallprompt); on iOS, which has none,
 * how to add it to the Home Screen (and why: iOS delivers web push only to installed apps).
 */
function InstallButton() {
  const dispatch = useAppDispatch();
  const installed = useAppSelector(selectIsInstalled);
  const canInstall = useAppSelector(selectInstallPromptAvailable);
  const platform = useAppSelector(selectPlatform);
  if (installed) return null;
  if (canInstall) {
    return (
      <button type="button" className="button" onClick={() => dispatch(installRequested())}>
        Install QuPM
      </button>
    );
  }
  if (platform === 'ios') {
    return (
      <p className="install-hint" role="note">
        <strong>Add QuPM to your Home Screen:</strong> tap the Share button{' '}
        <span aria-hidden="true">(the square with an arrow)</span>, then “Add to Home Screen”. Notifications
        on iPhone and iPad need it.
      </p>
    );
  }
  return null;
}

function Welcome() {
  const installed = useAppSelector(selectIsInstalled);
  const offlineReady = useAppSelector(selectOfflineReady);
  return (
    <section className="screen welcome" aria-labelledby="welcome-title">
      <div className="welcome__grid">
        <div className="welcome__hero">
          <h1 id="welcome-title">Advice, in one place</h1>
          <p className="welcome__lead">
            QuPM brings consultants and their clients together: channels to talk in, invitations to join them,
            and offers made just for you.
          </p>
          <ul className="welcome__points">
            <li>
              <strong>Channels.</strong> Join one with an invitation and message your consultant there.
            </li>
            <li>
              <strong>Offers.</strong> Discounts from your consultant wait for you under Services.
            </li>
            <li>
              <strong>Always with you.</strong>{' '}
              {installed
                ? 'QuPM is installed on this device.'
                : 'Install QuPM to open it like an app, with notifications and a badge.'}{' '}
              {offlineReady ? 'It opens offline too.' : ''}
            </li>
          </ul>
          <InstallButton />
        </div>
        <AuthForm title="Welcome" lead="Sign in to your QuPM account, or create one." />
      </div>
    </section>
  );
}

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

function Home() {
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
      <InvitationsForYou />
      <DroppedNotice />
      <div className={openId ? 'workspace workspace--open' : 'workspace'}>
        <ChannelList openId={openId} />
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
            <Conversation key={openId} channelId={openId} />
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

export function Component() {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'unknown' || status === 'loading') return <LoadingScreen inline />;
  return status === 'signedIn' ? <Home /> : <Welcome />;
}
