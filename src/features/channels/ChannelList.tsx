// The person's channels, newest activity first: title (a private consultation: the other person's name), the last
// message, its time and the unread count. A consultant can start a new channel from here, with the form the route
// hands in (the consultant tools', loaded on demand: src/app/home/Home.tsx).
import { Suspense, useState } from 'react';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { messageSummary } from '@core/messageText';
import type { Channel } from '@core/model';
import { channelPath } from '@core/paths';
import { channelDisplayName, isPrivateChannel } from '@core/privateChannels';
import { useAppSelector } from '@/store/hooks';
import { selectIsOnline } from '@/store/appSlice';
import { selectChannels, selectOverview } from '@/store/channelsSlice';
import { selectMutes } from '@/store/mutesSlice';
import { selectIsConsultant, selectUid } from '@/store/userSlice';
import { formatFullTime, formatMessageTime, useNow } from '@/ui/time';
import { BellOff } from '@/ui/BellOff';
import { Avatar, channelFace } from '@/ui/Avatar';
import { mutedWords } from '@/ui/muteWords';
import '../../ui/mute.css';
import { ReconnectingStatus } from '@/ui/LiveNotices';

export function ChannelList({
  openId,
  NewChannelForm,
  Search,
}: {
  openId: string | null;
  /** A consultant's form for a new channel; without it the list offers none. */
  NewChannelForm?: ComponentType<{ onDone: () => void }>;
  /** Search across the person's channels (the conversation's, loaded with it); without it the list has none. */
  Search?: ComponentType;
}) {
  const { status, error } = useAppSelector(selectChannels);
  const items = useAppSelector(selectOverview);
  const isConsultant = useAppSelector(selectIsConsultant);
  const uid = useAppSelector(selectUid);
  const mutes = useAppSelector(selectMutes);
  const now = useNow(30_000);
  const [creating, setCreating] = useState(false);
  const online = useAppSelector(selectIsOnline);

  return (
    <nav className="channels" aria-labelledby="channels-title">
      <div className="channels__head">
        <h2 id="channels-title">Channels</h2>
        {openId === null && <ReconnectingStatus />}
        {isConsultant && NewChannelForm && !creating && (
          <button type="button" className="button button--small" onClick={() => setCreating(true)}>
            New channel
          </button>
        )}
      </div>
      {Search && (
        <div className="channels__search">
          <Suspense fallback={null}>
            <Search />
          </Suspense>
        </div>
      )}
      {creating && NewChannelForm && (
        <Suspense
          fallback={
            <p className="muted" role="status">
              Loading…
            </p>
          }
        >
          <NewChannelForm onDone={() => setCreating(false)} />
        </Suspense>
      )}
      {/* Offline, the layout says so already: the channels last known stay, without an alarm over them. */}
      {error && status === 'loaded' && online && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {/* Channels kept on this device show while loading: the layout's "Updating · as of" says they are not live. */}
      {(status === 'idle' || status === 'loading') && items.length === 0 && (
        <p className="muted channels__note" role="status">
          Loading your channels…
        </p>
      )}
      {status === 'failed' && (
        <p className="form-error" role="alert">
          {error ?? "Your channels couldn't be loaded."}
        </p>
      )}
      {status === 'loaded' && items.length === 0 && !creating && (
        <div className="channels__empty">
          <p className="channels__empty-title">No channels yet</p>
          <p className="muted">
            {isConsultant
              ? 'Create a channel for a service you offer, then invite your clients to it.'
              : 'When a consultant invites you, open the link they sent and their channel appears here.'}
          </p>
        </div>
      )}
      {items.length > 0 && (
        <ul className="channels__list">
          {items.map(({ channel, lastMessage, unread }) => {
            const open = channel.id === openId;
            // A muted channel still counts what is unread, quietly, with a bell that says until when.
            const muted = mutedWords(mutes[channel.id] ?? null, now);
            const preview = lastMessage
              ? `${lastMessage.senderId === uid ? 'You' : lastMessage.senderName}: ${lastMessage.deleted ? 'Message deleted' : messageSummary(lastMessage)}`
              : channel.description || 'No messages yet';
            return (
              <li key={channel.id}>
                <Link
                  className={open ? 'channel-link channel-link--open' : 'channel-link'}
                  to={channelPath(channel.id)}
                  aria-current={open ? 'page' : undefined}
                >
                  <span className="channel-link__head">
                    <ChannelFace channel={channel} uid={uid ?? ''} />
                    <span className="channel-link__title" dir="auto">
                      {channelDisplayName(channel, uid ?? '')}
                      {isPrivateChannel(channel) && <span className="muted"> · private</span>}
                    </span>
                    {muted && (
                      // The bell says it at a glance; the words are for screen readers and a pointer's hover.
                      <span className="muted-mark channel-link__muted" title={muted}>
                        <BellOff />
                        <span className="visually-hidden">{muted}</span>
                      </span>
                    )}
                  </span>
                  {lastMessage && (
                    <time
                      className="channel-link__time"
                      dateTime={new Date(lastMessage.createdAt).toISOString()}
                      title={formatFullTime(lastMessage.createdAt)}
                    >
                      {formatMessageTime(lastMessage.createdAt, now)}
                    </time>
                  )}
                  <span className="channel-link__preview" dir="auto">
                    {preview}
                  </span>
                  {unread > 0 && (
                    <span
                      className={
                        muted ? 'channel-link__unread channel-link__unread--muted' : 'channel-link__unread'
                      }
                      aria-label={`${unread} unread`}
                    >
                      {unread > 99 ? '99+' : unread}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

/** The channel's face beside its name (src/ui/Avatar.tsx channelFace). */
function ChannelFace({ channel, uid }: { channel: Channel; uid: string }) {
  const face = channelFace(channel, uid);
  return <Avatar id={face.id} name={face.name} photoURL={face.photoURL} size="small" />;
}
