// A channel's people as its owner sees them (the owner first, then by join time), each member with "Send offer",
// "Message … privately" (a private consultation of the two) and "Remove" (confirmed; what they wrote stays).
import { useEffect, useState } from 'react';
import type { Channel } from '@core/model';
import { isPrivateChannel } from '@core/privateChannels';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { membersRequested, selectMembers } from '@/store/membersSlice';
import { OfferForm } from './OfferForm';
import { RemoveMember } from './RemoveMember';
import { PrivateChatButton } from '@/ui/PrivateChatButton';
import { formatDate } from '@/ui/time';
import { Avatar } from '@/ui/Avatar';

export function ChannelMembers({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector((state) => selectMembers(state, channel.id));
  const [offering, setOffering] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  useEffect(() => {
    dispatch(membersRequested({ channelId: channel.id }));
  }, [dispatch, channel.id, channel.members.length]);

  if (!members || members.status === 'loading' || members.status === 'idle') {
    return (
      <p className="muted" role="status">
        Loading members…
      </p>
    );
  }
  if (members.status === 'failed') {
    return (
      <p className="form-error" role="alert">
        {members.error}
      </p>
    );
  }
  return (
    <ul className="members">
      {members.items.map((member) => (
        <li key={member.uid} className="members__item">
          <div className="members__row">
            <span>
              <Avatar
                id={member.uid}
                name={member.name}
                photoURL={channel.photos?.[member.uid] ?? member.photoURL}
                size="small"
                className="avatar--inline"
              />
              <span className="members__name">{member.name}</span>{' '}
              <span className="muted">
                {member.role === 'owner' ? 'owner' : `joined ${formatDate(member.joinedAt)}`}
              </span>
            </span>
            {member.role === 'member' && offering !== member.uid && removing !== member.uid && (
              <span className="members__actions">
                <PrivateChatButton
                  withUid={member.uid}
                  viaChannelId={channel.id}
                  label={`Message ${member.name} privately`}
                />
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => setOffering(member.uid)}
                >
                  Send offer<span className="visually-hidden"> to {member.name}</span>
                </button>
                {!isPrivateChannel(channel) && (
                  <button
                    type="button"
                    className="button button--small button--quiet"
                    onClick={() => setRemoving(member.uid)}
                  >
                    Remove<span className="visually-hidden"> {member.name}</span>
                  </button>
                )}
              </span>
            )}
          </div>
          {removing === member.uid && (
            <RemoveMember channel={channel} member={member} onDone={() => setRemoving(null)} />
          )}
          {offering === member.uid && (
            <OfferForm channel={channel} member={member} onDone={() => setOffering(null)} />
          )}
        </li>
      ))}
      {members.items.length <= 1 && <li className="muted">No members yet: invite someone.</li>}
    </ul>
  );
}
