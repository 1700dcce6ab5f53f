// One channel's conversation: its messages (live, with sender names and times, paging back through history as
// the person scrolls up), then the person's messages still on their way out (the outbox: "Sending…", "Not sent"
// with Retry and Delete), the service banner when they can neither message nor own the channel (spec §2), and
// the composer, whose draft is kept per channel. New messages from others are announced to screen readers. A
// channel's owner manages it with the panel the route hands in (the consultant tools', loaded on demand).
import { Suspense, useEffect, useState } from 'react';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectChannelPermissions, selectOverview, selectShowServiceBanner } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { channelDisplayName, isPrivateChannel } from '@core/privateChannels';
import { Avatar, channelFace } from '@/ui/Avatar';
import type { Channel } from '@core/model';
import { membersRequested, selectMembers } from '@/store/membersSlice';
import { PrivateChatButton } from '@/ui/PrivateChatButton';
import { messagesRequested, selectConversation } from '@/store/conversationSlice';
import { ReconnectingStatus } from '@/ui/LiveNotices';
import { ChannelDescription } from './ChannelDescription';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { MuteControl } from './MuteControl';
import './conversation.css';

/**
 * The one message someone outside the channel sees (the banner and the refused read said two things):
 * the backend does not let a non-member read the messages either, so the list is not asked for.
 */
function ServiceBanner() {
  return (
    <div className="service-banner" role="status">
      <strong>You are not a member of this channel.</strong> Only its consultant and members can read and send
      messages here. Ask the consultant for an invitation to join.
    </div>
  );
}

/**
 * Announces the newest message from others once it arrives (not the history the channel opened with). Mounted
 * once the conversation has loaded, so the last message at that moment is history. Derived while rendering: no
 * state is set from an effect (a burst must not cost a second render per message).
 */
function Announcer({ channelId }: { channelId: string }) {
  const messages = useAppSelector((state) => selectConversation(state, channelId)?.messages);
  const uid = useAppSelector(selectUid);
  const last = messages?.[messages.length - 1];
  const [historyEnd] = useState(() => last?.id ?? null);
  const said =
    last && last.id !== historyEnd && last.senderId !== uid
      ? `${last.senderName}: ${last.text.slice(0, 200)}`
      : '';
  return (
    <p className="visually-hidden" aria-live="polite">
      {said}
    </p>
  );
}

/**
 * A client's way to their consultant alone: "Talk privately with Dana", named once the
 * channel's people are known.
 */
function TalkPrivately({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector((state) => selectMembers(state, channel.id));
  useEffect(() => {
    dispatch(membersRequested({ channelId: channel.id }));
  }, [dispatch, channel.id]);
  const consultant = members?.items.find((m) => m.role === 'owner')?.name;
  return (
    <PrivateChatButton
      withUid={channel.ownerId}
      viaChannelId={channel.id}
      label={consultant ? `Talk privately with ${consultant}` : 'Talk privately with your consultant'}
    />
  );
}

/** The header's face: the other person of a private consultation, else the channel's initials. */
function HeaderFace({ channel, uid }: { channel: Channel; uid: string }) {
  const face = channelFace(channel, uid);
  return <Avatar id={face.id} name={face.name} photoURL={face.photoURL} className="conversation__face" />;
}

export function Conversation({
  channelId,
  ManagePanel,
}: {
  channelId: string;
  /** The owner's tools for the channel; without them the conversation offers no Manage. */
  ManagePanel?: ComponentType<{ channel: Channel }>;
}) {
  const dispatch = useAppDispatch();
  // The channel alone (not the overview, which changes with every message): a live message re-renders the list,
  // not the whole conversation.
  const channel = useAppSelector(
    (state) => selectOverview(state).find((o) => o.channel.id === channelId)?.channel,
  );
  const permissions = useAppSelector((state) => selectChannelPermissions(state, channelId));
  const banner = useAppSelector((state) => selectShowServiceBanner(state, channelId));
  const known = useAppSelector((state) => selectConversation(state, channelId) !== undefined);
  const loaded = useAppSelector((state) => selectConversation(state, channelId)?.status === 'loaded');
  const [managing, setManaging] = useState(false);

  useEffect(() => {
    if (!known) dispatch(messagesRequested({ channelId }));
  }, [dispatch, channelId, known]);

  const isOwner = permissions?.isOwner === true;
  const uid = useAppSelector(selectUid);
  const isPrivate = channel !== undefined && isPrivateChannel(channel);
  // A client of an ordinary channel (a member, not its owner) may talk with its consultant alone.
  const isClient = channel !== undefined && !isPrivate && uid !== null && channel.members.includes(uid);
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation__head">
        <Link className="conversation__back" to="/">
          ‹ Channels
        </Link>
        {channel && <HeaderFace channel={channel} uid={uid ?? ''} />}
        <div className="conversation__title">
          <h2 id="conversation-title">{channel ? channelDisplayName(channel, uid ?? '') : 'Channel'}</h2>
          {isPrivate ? (
            <p className="muted">Private conversation: only the two of you can read it.</p>
          ) : (
            channel?.description && <ChannelDescription text={channel.description} />
          )}
          {isClient && channel && (
            <div className="conversation__private">
              <TalkPrivately channel={channel} />
            </div>
          )}
          <ReconnectingStatus />
        </div>
        {channel && <MuteControl channelId={channelId} />}
        {isOwner && ManagePanel && (
          <button
            type="button"
            className="button button--small"
            aria-expanded={managing}
            onClick={() => setManaging((open) => !open)}
          >
            {managing ? 'Close' : 'Manage'}
          </button>
        )}
      </header>
      {managing && isOwner && channel && ManagePanel ? (
        <Suspense
          fallback={
            <p className="muted" role="status">
              Loading…
            </p>
          }
        >
          <ManagePanel channel={channel} />
        </Suspense>
      ) : (
        <>
          {banner ? <ServiceBanner /> : <MessageList channelId={channelId} />}
          {loaded && !banner && <Announcer channelId={channelId} />}
          <Composer channelId={channelId} blocked={banner} />
        </>
      )}
    </section>
  );
}
