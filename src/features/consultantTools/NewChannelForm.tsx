// A consultant creates a channel: a title, a public handle (suggested from the title) and a description.
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { CHANNEL_HANDLE_PATTERN } from '@core/channels';
import { LIMITS } from '@core/limits';
import { channelPath } from '@core/paths';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { channelCreateRequested, channelSaveDismissed, selectChannelSave } from './manageSlice';
import './manage.css';

/** A handle from a title: lowercase ASCII letters and digits joined by single dashes. */
export function suggestHandle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, LIMITS.channelIdMax)
    .replace(/-+$/, '');
}

/** What is wrong with the form, in words, or null. */
export function checkNewChannel(title: string, handle: string): string | null {
  if (title.trim() === '') return 'Give the channel a title.';
  if (title.trim().length > LIMITS.channelTitleMax)
    return `A title can be at most ${LIMITS.channelTitleMax} characters.`;
  if (handle.length < LIMITS.channelIdMin || handle.length > LIMITS.channelIdMax)
    return `The handle needs ${LIMITS.channelIdMin} to ${LIMITS.channelIdMax} characters.`;
  if (!CHANNEL_HANDLE_PATTERN.test(handle))
    return 'The handle can use lowercase letters, digits and single dashes.';
  return null;
}

export function NewChannelForm({ onDone }: { onDone: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const save = useAppSelector(selectChannelSave);
  const ids = { title: useId(), handle: useId(), description: useId() };
  const [title, setTitle] = useState('');
  const [handle, setHandle] = useState('');
  const [handleEdited, setHandleEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => {
    if (submitted && save.status === 'saved' && save.channelId) {
      dispatch(channelSaveDismissed());
      onDone();
      navigate(channelPath(save.channelId));
    }
  }, [submitted, save, dispatch, onDone, navigate]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const issue = checkNewChannel(title, handle);
    setProblem(issue);
    if (issue) return;
    setSubmitted(true);
    dispatch(
      channelCreateRequested({ channelId: handle, title: title.trim(), description: description.trim() }),
    );
  };

  const error = problem ?? (submitted && save.status === 'failed' ? save.error : null);
  return (
    <form className="card new-channel" onSubmit={submit} aria-label="New channel" noValidate>
      <div className="field">
        <label htmlFor={ids.title}>Title</label>
        <input
          id={ids.title}
          value={title}
          maxLength={LIMITS.channelTitleMax + 20}
          onChange={(e) => {
            setTitle(e.target.value);
            if (!handleEdited) setHandle(suggestHandle(e.target.value));
          }}
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor={ids.handle}>Handle</label>
        <input
          id={ids.handle}
          value={handle}
          onChange={(e) => {
            setHandleEdited(true);
            setHandle(e.target.value.toLowerCase());
          }}
          aria-describedby={`${ids.handle}-hint`}
        />
        <p className="field__hint" id={`${ids.handle}-hint`}>
          The channel's short name in links and lists, such as strategy-studio: lowercase letters, digits and
          dashes, unique in QuPM.
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <textarea
          id={ids.description}
          rows={2}
          value={description}
          maxLength={LIMITS.channelDescriptionMax}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={save.status === 'saving'}>
          {save.status === 'saving' ? 'Creating…' : 'Create channel'}
        </button>
        <button type="button" className="button button--quiet" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
