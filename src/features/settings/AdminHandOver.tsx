// Settings → Admin → Channels: an admin hands a channel to another consultant (core/housekeeping.ts planHandOver
// lets an admin do it for any ordinary channel). The consultants are the users list's; the request is the
// consultant tools' (their chunk loads with it), and the channels are read again once it is done.
import { useEffect, useId, useState } from 'react';
import type { AdminUser, Channel } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { StepError } from '@/ui/StepError';
import { handOverRequested, selectStep, stepDismissed, stepKey } from '@/store/housekeepingSlice';
import { adminChannelsRequested } from './adminSlice';

export function AdminHandOver({ channel, users }: { channel: Channel; users: readonly AdminUser[] }) {
  const dispatch = useAppDispatch();
  const [toUid, setToUid] = useState('');
  const id = useId();
  const key = stepKey('handOver', channel.id);
  const step = useAppSelector((state) => selectStep(state, key));
  useEffect(() => {
    if (step?.status !== 'done') return;
    dispatch(stepDismissed({ key }));
    dispatch(adminChannelsRequested());
  }, [dispatch, key, step?.status]);
  const consultants = users.filter((user) => user.isOwner && user.uid !== channel.ownerId);
  if (consultants.length === 0) return null;
  return (
    <div className="housekeeping__row">
      <label htmlFor={id} className="visually-hidden">
        New owner of {channel.title}
      </label>
      <select id={id} value={toUid} onChange={(e) => setToUid(e.target.value)}>
        <option value="">Hand over to…</option>
        {consultants.map((user) => (
          <option key={user.uid} value={user.uid}>
            {user.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button--small"
        disabled={toUid === '' || step?.status === 'working'}
        onClick={() => dispatch(handOverRequested({ channelId: channel.id, toUid }))}
      >
        {step?.status === 'working' ? 'Handing over…' : 'Hand over'}
        <span className="visually-hidden"> {channel.title}</span>
      </button>
      <StepError kind="handOver" target={channel.id} />
    </div>
  );
}
