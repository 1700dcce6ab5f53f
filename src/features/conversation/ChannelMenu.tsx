// The conversation's one-line header keeps the title; everything else about the channel sits behind its menu, as
// in WhatsApp's and Slack's channel details: the description (or what a private conversation is), the way to the
// consultant alone, mute, manage (its owner) and who is in it. A disclosure (a button and the panel it opens),
// not an ARIA menu: the panel holds text and a list, not only commands. Escape closes it and focus returns to
// its button.
import { useEffect, useId, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { membersRequested, selectMembers } from '@/store/membersSlice';

/** The header's button that opens and closes the channel's menu. */
export function ChannelMenuButton({
  open,
  controls,
  onToggle,
  buttonRef,
}: {
  open: boolean;
  controls: string;
  onToggle: () => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <button
      ref={buttonRef}
      type="button"
      className="channel-menu__toggle"
      aria-expanded={open}
      aria-controls={controls}
      aria-label="Channel menu"
      title="Channel menu"
      onClick={onToggle}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="5" r="2" fill="currentColor" />
        <circle cx="12" cy="12" r="2" fill="currentColor" />
        <circle cx="12" cy="19" r="2" fill="currentColor" />
      </svg>
    </button>
  );
}

/** Who is in the channel, by their current names (asked for when the menu opens). */
function Members({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector((state) => selectMembers(state, channelId));
  useEffect(() => {
    dispatch(membersRequested({ channelId }));
  }, [dispatch, channelId]);
  const headingId = useId();
  if (!members || members.status !== 'loaded') {
    return (
      <p className="muted" role="status">
        {members?.status === 'failed'
          ? (members.error ?? 'The members could not be loaded.')
          : 'Loading members…'}
      </p>
    );
  }
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="channel-menu__heading">
        Members ({members.items.length})
      </h2>
      <ul className="channel-menu__members">
        {members.items.map((member) => (
          <li key={member.uid}>
            <bdi>{member.name}</bdi>
            {member.role === 'owner' && <span className="muted"> · consultant</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The panel under the header: what the header leaves out, then its members. */
export function ChannelMenu({
  id,
  channelId,
  onClose,
  children,
}: {
  id: string;
  channelId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
  }, []);
  return (
    <div
      ref={panel}
      id={id}
      className="channel-menu"
      role="region"
      aria-label="Channel details"
      tabIndex={-1}
      onKeyDown={(event) => {
        // The mute control's own choices close first (it stops the event); then the panel.
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      {children}
      <Members channelId={channelId} />
    </div>
  );
}
