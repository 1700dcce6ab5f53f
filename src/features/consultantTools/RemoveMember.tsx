// Manage → Members → Remove: said first, then confirmed. The member loses the channel (live, in their windows);
// what they wrote stays, under their name, and their active offers in it are withdrawn (core/housekeeping.ts).
import { useEffect, useRef } from 'react';
import type { Channel, ChannelMember } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { StepError } from '@/ui/StepError';
import { memberRemoveRequested, selectStep, stepDismissed, stepKey } from '@/store/housekeepingSlice';

export function RemoveMember({
  channel,
  member,
  onDone,
}: {
  channel: Channel;
  member: ChannelMember;
  onDone: () => void;
}) {
  const dispatch = useAppDispatch();
  const target = `${channel.id}/${member.uid}`;
  const step = useAppSelector((state) => selectStep(state, stepKey('remove', target)));
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
  }, []);
  useEffect(() => {
    if (step?.status !== 'done') return;
    dispatch(stepDismissed({ key: stepKey('remove', target) }));
    onDone();
  }, [dispatch, step?.status, target, onDone]);
  const working = step?.status === 'working';
  return (
    <div className="housekeeping__confirm" role="group" aria-label={`Remove ${member.name}`}>
      <p>
        Remove {member.name} from “{channel.title}”? They lose the channel at once; what they wrote stays, and
        their active offers in it are withdrawn.
      </p>
      <div className="housekeeping__actions">
        <button
          type="button"
          className="button button--danger"
          disabled={working}
          onClick={() => dispatch(memberRemoveRequested({ channelId: channel.id, uid: member.uid }))}
        >
          {working ? 'Removing…' : `Remove ${member.name}`}
        </button>
        <button
          ref={cancel}
          type="button"
          className="button button--quiet"
          disabled={working}
          onClick={onDone}
        >
          Cancel
        </button>
      </div>
      <StepError kind="remove" target={target} />
    </div>
  );
}
