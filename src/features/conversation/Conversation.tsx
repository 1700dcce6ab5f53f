// One channel's conversation: its messages (live, with sender names and times, paging back through history as
// the person scrolls up), then the person's messages still on their way out (the outbox: "Sending…", "Not sent"
// with Retry and Delete), the service banner when they can neither message nor own the channel (spec §2), and
// the composer, whose draft is kept per channel. New messages from others are announced to screen readers. A
// channel's owner manages it with the panel the route hands in (the consultant tools', loaded on demand).
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import type { ComponentType } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MESSAGE_PARAM } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectChannelPermissions, selectOverview, selectShowServiceBanner } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { channelDisplayName, isPrivateChannel, otherParticipant } from '@core/privateChannels';
import { Avatar, channelFace } from '@/ui/Avatar';
import type { Channel } from '@core/model';
import { membersRequested, selectCurrentName, selectMembers } from '@/store/membersSlice';
import { messageSummary } from '@core/messageText';
import { PrivateChatButton } from '@/ui/PrivateChatButton';
import { messagesRequested, selectConversation } from '@/store/conversationSlice';
import { ReconnectingStatus } from '@/ui/LiveNotices';
import { ChannelDescription } from './ChannelDescription';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { MuteControl } from './MuteControl';
import { ChannelMenu, ChannelMenuButton } from './ChannelMenu';
import { MutedMark } from './MutedMark';
import { messageFocusRequested } from './conversationWindow';
import { SearchPanel } from './SearchPanel';
import { HOUSEKEEPING_MESSAGES } from '@core/housekeeping';
import { FORMER_MEMBER_ID } from '@core/leaving';
import { selectChannelGone } from '@/store/housekeepingSlice';
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
  const sender = useAppSelector((state) =>
    last ? selectCurrentName(state, channelId, last.senderId) : null,
  );
  // A message deleted since it came is not read out (no "Dana:" with nothing after it); a file alone reads as
  // its summary ("Sent a photo").
  const said =
    last && last.id !== historyEnd && last.senderId !== uid && !last.deleted
      ? `${sender ?? last.senderName}: ${messageSummary(last).slice(0, 200)}`
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

/**
 * Opening the channel at a message (`&message=<cursor>`, a search hit): asked for each time the link changes, so
 * following the same hit again brings it back into view.
 */
function useOpenAtMessage(channelId: string) {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const cursor = params.get(MESSAGE_PARAM);
  useEffect(() => {
    if (cursor) dispatch(messageFocusRequested({ channelId, cursor }));
  }, [dispatch, channelId, cursor]);
}

/** Search in this channel, from the header: a toggle, and the field with its hits under the header. */
function useChannelSearch() {
  const [open, setOpen] = useState(false);
  const toggle = (
    <button
      type="button"
      className="button button--small button--quiet conversation__search-toggle"
      aria-expanded={open}
      aria-label={open ? 'Close search' : 'Search in this channel'}
      title={open ? 'Close search' : 'Search in this channel'}
      onClick={() => setOpen((was) => !was)}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
  return { open, close: () => setOpen(false), toggle };
}

/** The header's face: the other person of a private consultation, else the channel's initials. */
function HeaderFace({ channel, uid }: { channel: Channel; uid: string }) {
  const face = channelFace(channel, uid);
  return <Avatar id={face.id} name={face.name} photoURL={face.photoURL} className="conversation__face" />;
}

/** A channel gone while open (deleted, handed over, or the person was taken out): said, with the way back. */
function GoneChannel() {
  return (
    <div className="conversation__gone" role="status">
      <p>
        This channel is no longer yours to read: it was deleted or handed over, or you were taken out of it.
      </p>
      <Link className="button button--small" to="/">
        Back to your channels
      </Link>
    </div>
  );
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
  const gone = useAppSelector((state) => selectChannelGone(state, channelId)) && !channel;
  const archived = channel?.archivedAt !== undefined;
  // A private consultation is archived when its consultant leaves QuPM: say that, not "archived".
  const ownerLeft = archived && channel?.ownerId === FORMER_MEMBER_ID;
  const [managing, setManaging] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  useOpenAtMessage(channelId);
  const search = useChannelSearch();

  useEffect(() => {
    if (!known) dispatch(messagesRequested({ channelId }));
  }, [dispatch, channelId, known]);
  useEffect(() => {
    // The channel's people, for their current names on the bubbles (a member only: others are refused anyway).
    if (!banner) dispatch(membersRequested({ channelId }));
  }, [dispatch, channelId, banner]);

  const isOwner = permissions?.isOwner === true;
  const uid = useAppSelector(selectUid);
  const isPrivate = channel !== undefined && isPrivateChannel(channel);
  // A client of an ordinary channel (a member, not its owner) may talk with its consultant alone.
  const isClient = channel !== undefined && !isPrivate && uid !== null && channel.members.includes(uid);
  // A private conversation is named after the other person: by the name they go by now, once their channel's
  // people are loaded (the stored name is what the list shows until then).
  const otherName = useAppSelector((state) =>
    channel && isPrivate ? selectCurrentName(state, channelId, otherParticipant(channel, uid ?? '')) : null,
  );
  const title = otherName ?? (channel ? channelDisplayName(channel, uid ?? '') : 'Channel');
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation__head">
        <Link className="conversation__back" to="/" aria-label="Back to channels" title="Back to channels">
          <span aria-hidden="true">‹</span>
        </Link>
        {channel && <HeaderFace channel={channel} uid={uid ?? ''} />}
        <h1 id="conversation-title" className="conversation__name" dir="auto" title={title}>
          {title}
        </h1>
        {channel && <MutedMark channelId={channelId} />}
        <ReconnectingStatus />
        {!banner && !managing && search.toggle}
        {managing ? (
          <button type="button" className="button button--small" onClick={() => setManaging(false)}>
            Close
          </button>
        ) : (
          <ChannelMenuButton
            open={menuOpen}
            controls={menuId}
            buttonRef={menuButton}
            onToggle={() => setMenuOpen((was) => !was)}
          />
        )}
      </header>
      {menuOpen && !managing && (
        <ChannelMenu
          id={menuId}
          channelId={channelId}
          onClose={() => {
            setMenuOpen(false);
            menuButton.current?.focus();
          }}
        >
          {isPrivate ? (
            <p className="muted">Private conversation: only the two of you can read it.</p>
          ) : (
            channel?.description && <ChannelDescription text={channel.description} />
          )}
          <div className="channel-menu__actions">
            {isClient && channel && <TalkPrivately channel={channel} />}
            {channel && <MuteControl channelId={channelId} />}
            {isOwner && ManagePanel && (
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  setMenuOpen(false);
                  setManaging(true);
                }}
              >
                Manage
              </button>
            )}
          </div>
        </ChannelMenu>
      )}
      {search.open && !banner && (
        <div className="conversation__search">
          <SearchPanel channelId={channelId} onOpen={search.close} />
        </div>
      )}
      {gone ? (
        <GoneChannel />
      ) : managing && isOwner && channel && ManagePanel ? (
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
          {archived && !banner && (
            <p className="conversation__archived" role="status">
              {ownerLeft ? HOUSEKEEPING_MESSAGES.consultantLeft : HOUSEKEEPING_MESSAGES.archived}
            </p>
          )}
          <Composer
            channelId={channelId}
            blocked={banner || archived}
            blockedWords={
              ownerLeft ? 'This conversation is closed' : archived ? 'This channel is archived' : undefined
            }
          />
        </>
      )}
    </section>
  );
}
