// Manage → Channel: its owner archives or restores it, hands it to another consultant, or deletes it. What archiving
// and deleting do to what the channel holds is read from the backend and said first (core/housekeeping.ts
// removalNotice); deleting is confirmed by typing the channel's name. Each refusal is shown in the backend's words.
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { Channel } from '@core/model';
import { isPrivateChannel } from '@core/privateChannels';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { membersRequested, selectMembers } from '@/store/membersSlice';
import { formatDate } from '@/ui/time';
import {
  archiveRequested,
  channelDeleteRequested,
  handOverRequested,
  removalNoticeRequested,
  selectRemovalNotice,
  selectStep,
  stepKey,
  unarchiveRequested,
} from '@/store/housekeepingSlice';
import type { StepKind } from '@/store/housekeepingSlice';
import { StepError } from '@/ui/StepError';

const useWorking = (kind: StepKind, target: string): boolean =>
  useAppSelector((state) => selectStep(state, stepKey(kind, target))?.status === 'working');

function ArchivePart({ channel, words }: { channel: Channel; words: string | null }) {
  const dispatch = useAppDispatch();
  const archiving = useWorking('archive', channel.id);
  const restoring = useWorking('unarchive', channel.id);
  const archived = channel.archivedAt !== undefined;
  return (
    <section className="housekeeping__part" aria-labelledby={`${channel.id}-archive`}>
      <h3 id={`${channel.id}-archive`} className="manage__subtitle">
        {archived ? 'Archived' : 'Archive'}
      </h3>
      {archived ? (
        <p className="muted">
          Archived on {formatDate(channel.archivedAt ?? 0)}: everyone can read it, nobody can send anything
          new.
        </p>
      ) : (
        <p className="muted">{words ?? 'Read-only for everyone until you restore it; nothing is removed.'}</p>
      )}
      <div className="housekeeping__actions">
        {archived ? (
          <button
            type="button"
            className="button"
            disabled={restoring}
            onClick={() => dispatch(unarchiveRequested({ channelId: channel.id }))}
          >
            {restoring ? 'Restoring…' : 'Restore channel'}
          </button>
        ) : (
          <button
            type="button"
            className="button"
            disabled={archiving}
            onClick={() => dispatch(archiveRequested({ channelId: channel.id }))}
          >
            {archiving ? 'Archiving…' : 'Archive channel'}
          </button>
        )}
      </div>
      <StepError kind={archived ? 'unarchive' : 'archive'} target={channel.id} />
    </section>
  );
}

function HandOverPart({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector((state) => selectMembers(state, channel.id));
  const [toUid, setToUid] = useState('');
  const [confirming, setConfirming] = useState(false);
  const handing = useWorking('handOver', channel.id);
  const selectId = useId();
  useEffect(() => {
    dispatch(membersRequested({ channelId: channel.id }));
  }, [dispatch, channel.id]);
  const candidates = members?.items.filter((member) => member.role === 'member') ?? [];
  const chosen = candidates.find((member) => member.uid === toUid);
  return (
    <section className="housekeeping__part" aria-labelledby={`${channel.id}-hand-over`}>
      <h3 id={`${channel.id}-hand-over`} className="manage__subtitle">
        Hand over
      </h3>
      <p className="muted">
        Another consultant takes the channel with its members, messages and waiting invitations; you leave it,
        and your active offers in it are withdrawn. The consultant must be a member of the channel (invite
        them first).
      </p>
      {candidates.length === 0 ? (
        <p className="muted">Nobody to hand it to yet: invite the consultant who should take it.</p>
      ) : !confirming || !chosen ? (
        <div className="housekeeping__row">
          <div className="field">
            <label htmlFor={selectId}>New owner</label>
            <select id={selectId} value={toUid} onChange={(e) => setToUid(e.target.value)}>
              <option value="">Choose a member…</option>
              {candidates.map((member) => (
                <option key={member.uid} value={member.uid}>
                  {member.name}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="button" disabled={!chosen} onClick={() => setConfirming(true)}>
            Hand over…
          </button>
        </div>
      ) : (
        <div className="housekeeping__confirm" role="group" aria-label="Confirm the hand-over">
          <p>
            Hand “{channel.title}” over to {chosen.name}? You will no longer be in it.
          </p>
          <div className="housekeeping__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={handing}
              onClick={() => dispatch(handOverRequested({ channelId: channel.id, toUid: chosen.uid }))}
            >
              {handing ? 'Handing over…' : `Hand over to ${chosen.name}`}
            </button>
            <button
              type="button"
              className="button button--quiet"
              disabled={handing}
              onClick={() => setConfirming(false)}
            >
              Cancel
            </button>
          </div>
        </div>
      )}
      <StepError kind="handOver" target={channel.id} />
    </section>
  );
}

function DeletePart({ channel, words }: { channel: Channel; words: string | null }) {
  const dispatch = useAppDispatch();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const deleting = useWorking('delete', channel.id);
  const matches = typed.trim() === channel.title.trim();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (matches) dispatch(channelDeleteRequested({ channelId: channel.id }));
  };
  return (
    <section className="housekeeping__part" aria-labelledby={`${channel.id}-delete`}>
      <h3 id={`${channel.id}-delete`} className="manage__subtitle">
        Delete
      </h3>
      <p className="muted">{words ?? 'Reading what deleting would remove…'}</p>
      {!confirming ? (
        <div className="housekeeping__actions">
          <button
            type="button"
            className="button button--danger"
            disabled={words === null}
            onClick={() => setConfirming(true)}
          >
            Delete channel…
          </button>
        </div>
      ) : (
        <form className="housekeeping__confirm" onSubmit={submit} aria-label="Confirm deleting the channel">
          <div className="field">
            <label htmlFor={inputId}>Type the channel’s name, “{channel.title}”, to delete it for good</label>
            <input
              id={inputId}
              value={typed}
              autoComplete="off"
              dir="auto"
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
          <div className="housekeeping__actions">
            <button type="submit" className="button button--danger" disabled={!matches || deleting}>
              {deleting ? 'Deleting…' : 'Delete for good'}
            </button>
            <button
              type="button"
              className="button button--quiet"
              disabled={deleting}
              onClick={() => {
                setConfirming(false);
                setTyped('');
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      <StepError kind="delete" target={channel.id} />
    </section>
  );
}

export function ChannelHousekeeping({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const notice = useAppSelector((state) => selectRemovalNotice(state, channel.id));
  // Read again when the channel changes (a member more, an archive): the counts in the words follow.
  useEffect(() => {
    dispatch(removalNoticeRequested({ channelId: channel.id }));
  }, [dispatch, channel.id, channel.members.length, channel.archivedAt]);
  const words = notice?.value?.notice ?? null;
  return (
    <div className="housekeeping">
      {notice?.status === 'failed' && (
        <div className="housekeeping__failed">
          <p className="form-error" role="alert">
            {notice.error}
          </p>
          <button
            type="button"
            className="button button--small"
            onClick={() => dispatch(removalNoticeRequested({ channelId: channel.id }))}
          >
            Try again
          </button>
        </div>
      )}
      <ArchivePart channel={channel} words={words?.archive ?? null} />
      {!isPrivateChannel(channel) && <HandOverPart channel={channel} />}
      <DeletePart channel={channel} words={words?.delete ?? null} />
    </div>
  );
}
