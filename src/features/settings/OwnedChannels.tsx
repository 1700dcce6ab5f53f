// Settings → Your data → Delete my account, for a consultant: the channels they still own, each a link to its
// conversation, where Manage → Channel hands it over or deletes it. The backend refuses the deletion
// while one is left, or while a session is still open (core/leaving.ts), and says which.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { channelPath } from '@core/paths';
import { channelDisplayName } from '@core/privateChannels';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { overviewRequested, selectChannels, selectOverview } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';

export function OwnedChannels() {
  const dispatch = useAppDispatch();
  const uid = useAppSelector(selectUid) ?? '';
  const status = useAppSelector(selectChannels).status;
  const overview = useAppSelector(selectOverview);
  const owned = overview.filter((item) => item.channel.ownerId === uid);
  useEffect(() => {
    if (status === 'idle') dispatch(overviewRequested());
  }, [dispatch, status]);
  if (status !== 'loaded') return null;
  if (owned.length === 0) {
    return (
      <p className="muted your-data__owned-none">
        You own no channel any more: once no session is waiting for you, your account can be deleted.
      </p>
    );
  }
  return (
    <div className="your-data__owned">
      <p>
        First hand over or delete{' '}
        {owned.length === 1 ? 'the channel you own' : `the ${owned.length} channels you own`} (open it, then
        Manage → Channel):
      </p>
      <ul>
        {owned.map(({ channel }) => (
          <li key={channel.id}>
            <Link to={channelPath(channel.id)} dir="auto">
              {channelDisplayName(channel, uid)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
