// A channel's owner edits its title and description (its handle never changes).
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { LIMITS } from '@core/limits';
import type { Channel } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { channelSaveDismissed, channelUpdateRequested, selectChannelSave } from './manageSlice';

export function ChannelDetailsForm({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const save = useAppSelector(selectChannelSave);
  const ids = { title: useId(), description: useId() };
  const [title, setTitle] = useState(channel.title);
  const [description, setDescription] = useState(channel.description);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void dispatch(channelSaveDismissed()), [dispatch]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (title.trim() === '') return setProblem('Give the channel a title.');
    setProblem(null);
    dispatch(
      channelUpdateRequested({
        id: channel.id,
        patch: { title: title.trim(), description: description.trim() },
      }),
    );
  };
  const mine = save.channelId === channel.id;
  return (
    <form className="manage__form" onSubmit={submit} aria-label="Channel details" noValidate>
      <div className="field">
        <label htmlFor={ids.title}>Title</label>
        <input
          id={ids.title}
          value={title}
          maxLength={LIMITS.channelTitleMax}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <textarea
          id={ids.description}
          rows={3}
          value={description}
          maxLength={LIMITS.channelDescriptionMax}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <p className="muted">
        Handle: <code className="path">{channel.channelId}</code>
      </p>
      {(problem || (mine && save.status === 'failed')) && (
        <p className="form-error" role="alert">
          {problem ?? save.error}
        </p>
      )}
      {mine && save.status === 'saved' && (
        <p className="form-success" role="status">
          Saved.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={mine && save.status === 'saving'}>
          {mine && save.status === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
