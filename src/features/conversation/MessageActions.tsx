// Editing and deleting a message in its bubble. MessageContent is what the bubble says: the
// text (with "edited" once edited), the "Message deleted" tombstone, or the inline editor (Enter saves, Escape
// cancels). MessageActions are the bubble's Edit and Delete buttons, offered only when core/messageEdits.ts allows
// them (one's own message: Edit for 24 hours, Delete always; the channel's owner: Delete on anyone's), shown on
// hover or focus (always on touch screens), with a confirmation before a deletion and a refusal in words.
import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { checkDelete, checkEdit } from '@core/messageEdits';
import { checkMessageText } from '@core/messageText';
import { LIMITS } from '@core/limits';
import type { ChatMessage } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectOverview } from '@/store/channelsSlice';
import { selectUid } from '@/store/userSlice';
import { MessageText } from '@/ui/MessageText';
import { formatMessageTime } from '@/ui/time';
import {
  messageChangeErrorDismissed,
  messageDeleteRequested,
  messageEditClosed,
  messageEditOpened,
  messageEditRequested,
  selectIsEditing,
  selectMessageChange,
} from './messageActionsSlice';
import './messageActions.css';

/** The channel of `channelId` as the channel list holds it (who owns it, who is in it), or undefined. */
function useChannelAccess(channelId: string) {
  return useAppSelector((state) => selectOverview(state).find((o) => o.channel.id === channelId)?.channel);
}

/** How a message is named to a screen reader: whose, when, and how it starts ("your message from 10:42, “Hi”"). */
function describe(message: ChatMessage, own: boolean, now: number): string {
  const start = message.text.length > 40 ? `${message.text.slice(0, 40)}…` : message.text;
  const whose = own ? 'your message' : `${message.senderName}’s message`;
  return `${whose} from ${formatMessageTime(message.createdAt, now)}${start ? `, “${start}”` : ''}`;
}

function editProblem(text: string): string | null {
  const checked = checkMessageText(text);
  if (checked.ok) return null;
  return checked.problem === 'empty'
    ? 'Write something, or delete the message instead.'
    : `That is ${checked.length.toLocaleString('en')} characters; a message can have at most ${LIMITS.messageMax.toLocaleString('en')}.`;
}

function MessageEditor({ message }: { message: ChatMessage }) {
  const dispatch = useAppDispatch();
  const change = useAppSelector((state) => selectMessageChange(state, message.id));
  const [text, setText] = useState(message.text);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const saving = change?.status === 'saving';
  const error = problem ?? (change?.kind === 'edit' ? change.error : null);

  useEffect(() => {
    const el = field.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
    // The editor is taller than the bubble was: the newest message's would open below the list's fold.
    el.closest('form')?.scrollIntoView?.({ block: 'nearest' });
  }, []);

  const save = () => {
    const found = editProblem(text);
    setProblem(found);
    if (found) return;
    if (text.trim() === message.text) {
      dispatch(messageEditClosed());
      return;
    }
    dispatch(messageEditRequested({ channelId: message.channelId, messageId: message.id, text }));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      dispatch(messageEditClosed());
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };

  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <textarea
        ref={field}
        className="message-editor__field"
        aria-label="Edit your message (Enter saves, Escape cancels)"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        value={text}
        rows={Math.min(6, Math.max(2, text.split('\n').length))}
        readOnly={saving}
        onChange={(event) => {
          setText(event.target.value);
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
      />
      {error && (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="message__actions">
        <button type="submit" className="button button--small" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="button button--small button--quiet"
          onClick={() => dispatch(messageEditClosed())}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What a bubble says: its text ("edited" once edited), the deleted tombstone, or the editor. */
export function MessageContent({ message }: { message: ChatMessage }) {
  const editing = useAppSelector((state) => selectIsEditing(state, message.id));
  if (message.deleted) {
    return <p className="message__text message__text--deleted">Message deleted</p>;
  }
  if (editing) return <MessageEditor message={message} />;
  return (
    <p className="message__text" dir="auto">
      <MessageText text={message.text} />
      {message.editedAt !== undefined && <span className="message__edited"> (edited)</span>}
    </p>
  );
}

/** Edit and Delete for a message, as far as the person may; nothing for a tombstone or someone else's. */
export function MessageActions({ message, own, now }: { message: ChatMessage; own: boolean; now: number }) {
  const dispatch = useAppDispatch();
  const uid = useAppSelector(selectUid) ?? '';
  const channel = useChannelAccess(message.channelId);
  const editing = useAppSelector((state) => selectIsEditing(state, message.id));
  const change = useAppSelector((state) => selectMessageChange(state, message.id));
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!confirming) return;
    confirmButton.current?.focus();
    confirmButton.current?.closest('.message__confirm')?.scrollIntoView?.({ block: 'nearest' });
  }, [confirming]);

  if (!channel || message.deleted) return null;
  const mayEdit = checkEdit(channel, message, uid, now).ok;
  const mayDelete = checkDelete(channel, message, uid).ok;
  const deleteError = change?.kind === 'delete' && change.status === 'failed' ? change.error : null;
  if (!mayEdit && !mayDelete && !deleteError) return null;
  const name = describe(message, own, now);
  const deleting = change?.kind === 'delete' && change.status === 'saving';

  if (confirming || deleting) {
    return (
      <div className="message__confirm" role="group" aria-label={`Delete ${name}?`}>
        <p className="message__confirm-text">
          {own ? 'Delete this message for everyone?' : `Delete ${message.senderName}’s message for everyone?`}
        </p>
        <div className="message__actions">
          <button
            ref={confirmButton}
            type="button"
            className="button button--small button--danger"
            disabled={deleting}
            onClick={() => {
              dispatch(messageDeleteRequested({ channelId: message.channelId, messageId: message.id }));
              setConfirming(false);
            }}
          >
            {deleting ? 'Deleting…' : 'Delete'}
          </button>
          <button
            type="button"
            className="button button--small button--quiet"
            disabled={deleting}
            onClick={() => setConfirming(false)}
          >
            Keep
          </button>
        </div>
      </div>
    );
  }

  return (
    <>
      {deleteError && (
        <div className="message__problem">
          <p className="form-error" role="alert">
            {`The message couldn't be deleted. ${deleteError}`}
          </p>
          <button
            type="button"
            className="button button--small button--quiet"
            onClick={() => dispatch(messageChangeErrorDismissed({ messageId: message.id }))}
          >
            OK
          </button>
        </div>
      )}
      {!editing && (mayEdit || mayDelete) && (
        <div className="message__tools">
          {mayEdit && (
            <button
              type="button"
              className="button button--small button--quiet"
              aria-label={`Edit ${name}`}
              onClick={() =>
                dispatch(messageEditOpened({ channelId: message.channelId, messageId: message.id }))
              }
            >
              Edit
            </button>
          )}
          {mayDelete && (
            <button
              type="button"
              className="button button--small button--quiet"
              aria-label={`Delete ${name}`}
              onClick={() => setConfirming(true)}
            >
              Delete
            </button>
          )}
        </div>
      )}
    </>
  );
}
