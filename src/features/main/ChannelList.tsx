// The person's channels, newest activity first: title, the last message, its time and the unread count. A
// consultant can start a new channel from here.
import { Suspense, lazy, useState } from 'react';
import { Link } from 'react-router-dom';
import { messageSummary } from '@core/messageText';
import { channelPath } from '@core/paths';
import { useAppSelector } from '@/store/hooks';
import { selectChannels } from '@/store/channelsSlice';
import { selectIsConsultant, selectUid } from '@/store/userSlice';
import { formatFullTime, formatMessageTime, useNow } from '@/ui/time';
import { ReconnectingStatus } from './LiveNotices';

// Only consultants create channels: the form loads with the rest of their tools, on demand.
const NewChannelForm = lazy(() =>
  import(/* webpackChunkName: "consultant-tools" */ './NewChannelForm').then((m) => ({
    default: m.NewChannelForm,
  })),
);

export function ChannelList({ openId }: { openId: string | null }) {
  const { status, items, error } = useAppSelector(selectChannels);
  const isConsultant = useAppSelector(selectIsConsultant);
  const uid = useAppSelector(selectUid);
  const now = useNow(60_000);
  const [creating, setCreating] = useState(false);

  return (
    <nav className="channels" aria-labelledby="channels-title">
      <div className="channels__head">
        <h2 id="channels-title">Channels</h2>
        {openId === null && <ReconnectingStatus />}
        {isConsultant && !creating && (
          <button type="button" className="button button--small" onClick={() => setCreating(true)}>
            New channel
          </button>
        )}
      </div>
      {creating && (
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
      {error && status === 'loaded' && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {(status === 'idle' || status === 'loading') && (
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
                  <span className="channel-link__title">{channel.title}</span>
                  {lastMessage && (
                    <time
                      className="channel-link__time"
                      dateTime={new Date(lastMessage.createdAt).toISOString()}
                      title={formatFullTime(lastMessage.createdAt)}
                    >
                      {formatMessageTime(lastMessage.createdAt, now)}
                    </time>
                  )}
                  <span className="channel-link__preview">{preview}</span>
                  {unread > 0 && (
                    <span className="channel-link__unread" aria-label={`${unread} unread`}>
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
