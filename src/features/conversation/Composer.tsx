// The composer: the draft is kept per channel, Enter sends, Shift+Enter starts a new line; sending never waits
// (the message joins the outbox at once). A file can go with the text, or alone: it uploads as
// soon as it is picked, with its progress and Cancel, and goes out with the next Send.
import { useId, useRef, useState } from 'react';
import type { ChangeEvent, FormEvent, KeyboardEvent } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_MESSAGES,
  checkAttachmentName,
  checkAttachmentSize,
  formatFileSize,
} from '@core/attachments';
import { LIMITS } from '@core/limits';
import { checkMessageText } from '@core/messageText';
import { holdFile } from './pendingFiles';
import { TypingIndicator } from './TypingIndicator';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  attachmentRemoveRequested,
  attachmentUploadRequested,
  selectComposerUpload,
} from './attachmentsSlice';
import type { ComposerUpload } from './attachmentsSlice';
import { draftChanged, messageSendRequested, selectDraft } from '@/store/outboxSlice';
import './attachments.css';
import { ReplyBar, useReplyingTo } from './MessageReplies';
import { replyCancelled } from './repliesSlice';

export const UPLOAD_NOT_FINISHED = 'Wait for the file to finish uploading, or cancel it.';
export const UPLOAD_NOT_SENT = 'The file could not be uploaded. Remove it, or choose another.';

/** What is wrong with a message before it is sent, in words, or null (the server checks the same). */
export function checkMessage(text: string, withAttachment = false): string | null {
  const checked = checkMessageText(text, { withAttachment });
  if (checked.ok) return null;
  if (checked.problem === 'empty') return 'Write a message or attach a file first.';
  return `A message can be at most ${LIMITS.messageMax.toLocaleString('en')} characters; this one has ${checked.length.toLocaleString('en')}.`;
}

/** What is wrong with a picked file before it is uploaded (its size and name), or null; the bytes are the server's. */
export function checkPickedFile(file: { name: string; size: number }): string | null {
  const size = checkAttachmentSize(file.size);
  if (size) return ATTACHMENT_MESSAGES[size];
  return checkAttachmentName(file.name).ok ? null : ATTACHMENT_MESSAGES.badName;
}

function UploadStatus({ upload }: { upload: ComposerUpload }) {
  const dispatch = useAppDispatch();
  const percent = upload.size > 0 ? Math.round((upload.sent / upload.size) * 100) : 0;
  const remove = () => dispatch(attachmentRemoveRequested({ uploadId: upload.uploadId }));
  return (
    <div className={`composer-file composer-file--${upload.status}`}>
      <p className="composer-file__name">
        <span className="composer-file__title">{upload.name}</span>{' '}
        <span className="muted">
          {upload.status === 'uploading'
            ? `Uploading… ${percent}%`
            : upload.status === 'ready'
              ? `${formatFileSize(upload.size)}, ready to send`
              : 'Not uploaded'}
        </span>
      </p>
      {upload.status === 'uploading' && (
        <progress
          className="composer-file__progress"
          value={upload.sent}
          max={upload.size || 1}
          aria-label={`Uploading ${upload.name}`}
        />
      )}
      {upload.error && (
        <p className="form-error composer-file__error" role="alert">
          {upload.error}
        </p>
      )}
      <button type="button" className="button button--small button--quiet" onClick={remove}>
        {upload.status === 'uploading' ? 'Cancel' : 'Remove'}
        <span className="visually-hidden"> {upload.name}</span>
      </button>
    </div>
  );
}

export function Composer({ channelId, blocked }: { channelId: string; blocked: boolean }) {
  const dispatch = useAppDispatch();
  const text = useAppSelector((state) => selectDraft(state, channelId));
  const upload = useAppSelector((state) => selectComposerUpload(state, channelId));
  const replyTo = useReplyingTo(channelId);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const picker = useRef<HTMLInputElement>(null);

  // Sending never waits: the message joins the outbox (shown at once as pending) and the box is free again.
  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    if (blocked) return;
    const attachment = upload?.status === 'ready' ? upload.attachment : null;
    const issue =
      upload?.status === 'uploading'
        ? UPLOAD_NOT_FINISHED
        : upload?.status === 'failed'
          ? UPLOAD_NOT_SENT
          : checkMessage(text, attachment !== null);
    setProblem(issue);
    if (issue) return;
    dispatch(
      messageSendRequested({
        channelId,
        text: text.trim(),
        ...(attachment ? { attachment } : {}),
        ...(replyTo ? { replyTo } : {}),
      }),
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Escape' && replyTo) dispatch(replyCancelled({ channelId }));
    // Enter sends, Shift+Enter starts a new line (and IME composition is left alone).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const onPick = (event: ChangeEvent<HTMLInputElement>): void => {
    const file = event.target.files?.[0];
    // The same file can be picked again after a Remove.
    event.target.value = '';
    if (!file) return;
    const issue = checkPickedFile(file);
    setProblem(issue);
    if (issue) return;
    if (upload) dispatch(attachmentRemoveRequested({ uploadId: upload.uploadId }));
    dispatch(
      attachmentUploadRequested({ uploadId: holdFile(file), channelId, name: file.name, size: file.size }),
    );
  };
  const length = text.trim().length;
  return (
    <form className="composer" onSubmit={submit} aria-label="Send a message">
      <TypingIndicator channelId={channelId} />
      <ReplyBar channelId={channelId} />
      <label htmlFor={id} className="visually-hidden">
        Message
      </label>
      <textarea
        id={id}
        rows={2}
        dir="auto"
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
      <div className="composer__buttons">
        <input
          ref={picker}
          type="file"
          className="visually-hidden"
          accept={ATTACHMENT_ACCEPT}
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
          data-testid="attach-input"
        />
        <button
          type="button"
          className="button composer__attach"
          disabled={blocked}
          onClick={() => picker.current?.click()}
          aria-label="Attach a file"
          title="Attach an image or a document (up to 10 MB)"
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path
              d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
        </button>
        <button type="submit" className="button button--primary" disabled={blocked}>
          Send
        </button>
      </div>
      {upload && <UploadStatus upload={upload} />}
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
