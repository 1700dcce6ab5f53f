// The composer: the draft is kept per channel, Enter sends, Shift+Enter starts a new line; sending never waits
// (the message joins the outbox at once).
import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { LIMITS } from '@core/limits';
import { checkMessageText } from '@core/messageText';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { draftChanged, messageSendRequested, selectDraft } from '@/store/outboxSlice';

/** What is wrong with a message before it is sent, in words, or null (the server checks the same). */
export function checkMessage(text: string): string | null {
  const checked = checkMessageText(text);
  if (checked.ok) return null;
  if (checked.problem === 'empty') return 'Write a message first.';
  return `A message can be at most ${LIMITS.messageMax.toLocaleString('en')} characters; this one has ${checked.length.toLocaleString('en')}.`;
}

export function Composer({ channelId, blocked }: { channelId: string; blocked: boolean }) {
  const dispatch = useAppDispatch();
  const text = useAppSelector((state) => selectDraft(state, channelId));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  // Sending never waits: the message joins the outbox (shown at once as pending) and the box is free again.
  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    if (blocked) return;
    const issue = checkMessage(text);
    setProblem(issue);
    if (!issue) dispatch(messageSendRequested({ channelId, text: text.trim() }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // Enter sends, Shift+Enter starts a new line (and IME composition is left alone).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const length = text.trim().length;
  return (
    <form className="composer" onSubmit={submit} aria-label="Send a message">
      <label htmlFor={id} className="visually-hidden">
        Message
      </label>
      <textarea
        id={id}
        rows={2}
        value={text}
        disabled={blocked}
        placeholder={blocked ? 'Only members can write here' : 'Write a message'}
        onChange={(e) => {
          dispatch(draftChanged({ channelId, text: e.target.value }));
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
      />
      <button type="submit" className="button button--primary" disabled={blocked}>
        Send
      </button>
      {length > LIMITS.messageMax - 500 && (
        <p className={length > LIMITS.messageMax ? 'composer__count form-error' : 'composer__count muted'}>
          {length.toLocaleString('en')} / {LIMITS.messageMax.toLocaleString('en')}
        </p>
      )}
      {problem && (
        <p className="form-error composer__error" role="alert" id={`${id}-error`}>
          {problem}
        </p>
      )}
    </form>
  );
}
