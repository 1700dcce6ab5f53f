// The composer: the draft is kept per channel, Enter sends, Shift+Enter starts a new line; sending never waits
// (the message joins the outbox at once). Files (up to 10, picked, pasted or dropped) can go with the text, or
// alone: each uploads as soon as it is chosen, shown as a thumbnail with its progress and Remove, and they go out
// together with the next Send.
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, ClipboardEvent, DragEvent, FormEvent, KeyboardEvent } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_ACCESS_MESSAGES,
  ATTACHMENT_COUNT_MAX,
  ATTACHMENT_MESSAGES,
  checkAttachmentName,
  checkAttachmentSize,
  formatFileSize,
} from '@core/attachments';
import { LIMITS } from '@core/limits';
import { checkMessageText } from '@core/messageText';
import { holdFile } from './pendingFiles';
import { objectUrlOf, revokeObjectUrl } from './uploads';
import { TypingIndicator } from './TypingIndicator';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  attachmentRemoveRequested,
  attachmentUploadRequested,
  selectComposerUploads,
} from './attachmentsSlice';
import type { ComposerUpload } from './attachmentsSlice';
import { draftChanged, messageSendRequested, selectDraft } from '@/store/outboxSlice';
import './attachments.css';
import { ReplyBar, useReplyingTo } from './MessageReplies';
import { replyCancelled } from './repliesSlice';

export const UPLOAD_NOT_FINISHED = 'Wait for the files to finish uploading, or cancel them.';
export const UPLOAD_NOT_SENT = 'A file could not be uploaded. Remove it, or choose another.';

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

/**
 * The files of a paste, a drop or the picker that may join the `held` ones: all of them, or the first problem in
 * words (an 11th file, one too large, a bad name), in which case none joins: nothing is half-chosen.
 */
export function checkChosenFiles(
  files: ReadonlyArray<{ name: string; size: number }>,
  held: number,
): string | null {
  if (held + files.length > ATTACHMENT_COUNT_MAX) return ATTACHMENT_ACCESS_MESSAGES.tooMany;
  for (const file of files) {
    const issue = checkPickedFile(file);
    if (issue) return `${file.name}: ${issue}`;
  }
  return null;
}

/** A pasted image has no name of its own (browsers call them all "image.png"): it gets a distinct one. */
function namedFile(file: File, index: number): File {
  if (file.name && file.name !== 'image.png') return file;
  const extension = file.type.split('/')[1] ?? 'png';
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return new File([file], `pasted-${stamp}-${index + 1}.${extension}`, { type: file.type });
}

function UploadStatus({ upload, thumbnail }: { upload: ComposerUpload; thumbnail?: string | undefined }) {
  const dispatch = useAppDispatch();
  const percent = upload.size > 0 ? Math.round((upload.sent / upload.size) * 100) : 0;
  const remove = () => dispatch(attachmentRemoveRequested({ uploadId: upload.uploadId }));
  return (
    <div className={`composer-file composer-file--${upload.status}`}>
      {thumbnail && <img className="composer-file__thumb" src={thumbnail} alt={upload.name} />}
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

export function Composer({
  channelId,
  blocked,
  blockedWords,
}: {
  channelId: string;
  blocked: boolean;
  /** Why nothing can be sent, when it is not that the person is no member (an archived channel). */
  blockedWords?: string;
}) {
  const dispatch = useAppDispatch();
  const text = useAppSelector((state) => selectDraft(state, channelId));
  const uploads = useAppSelector((state) => selectComposerUploads(state, channelId));
  const replyTo = useReplyingTo(channelId);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // Thumbnails of the chosen images, drawn from the files on this device (no upload needed to see them), by
  // upload id; let go when the composer goes.
  const [thumbnails, setThumbnails] = useState<Record<string, string>>({});
  const made = useRef<string[]>([]);
  useEffect(
    () => () => {
      for (const url of made.current) revokeObjectUrl(url);
    },
    [],
  );
  const id = useId();
  const picker = useRef<HTMLInputElement>(null);

  // Sending never waits: the message joins the outbox (shown at once as pending) and the box is free again.
  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    if (blocked) return;
    const attachments = uploads.flatMap((u) => (u.status === 'ready' && u.attachment ? [u.attachment] : []));
    const issue = uploads.some((u) => u.status === 'uploading')
      ? UPLOAD_NOT_FINISHED
      : uploads.some((u) => u.status === 'failed')
        ? UPLOAD_NOT_SENT
        : checkMessage(text, attachments.length > 0);
    setProblem(issue);
    if (issue) return;
    dispatch(
      messageSendRequested({
        channelId,
        text: text.trim(),
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(replyTo ? { replyTo } : {}),
      }),
    );
  };
  /** Files from the picker, a paste or a drop: all join the composer, or none (with why). */
  const choose = (files: File[]): void => {
    if (blocked || files.length === 0) return;
    const named = files.map(namedFile);
    const issue = checkChosenFiles(named, uploads.length);
    setProblem(issue);
    if (issue) return;
    const drawn: Record<string, string> = {};
    for (const file of named) {
      const uploadId = holdFile(file);
      if (file.type.startsWith('image/')) {
        drawn[uploadId] = objectUrlOf(file);
        made.current.push(drawn[uploadId]);
      }
      dispatch(attachmentUploadRequested({ uploadId, channelId, name: file.name, size: file.size }));
    }
    setThumbnails((before) => ({ ...before, ...drawn }));
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = Array.from(event.clipboardData.files);
    // Text pastes as text; only files (a copied screenshot or image) become attachments.
    if (files.length === 0) return;
    event.preventDefault();
    choose(files);
  };
  const onDragOver = (event: DragEvent<HTMLFormElement>): void => {
    if (blocked || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>): void => {
    setDragging(false);
    if (blocked || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    choose(Array.from(event.dataTransfer.files));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Escape' && replyTo) dispatch(replyCancelled({ channelId }));
    // Enter sends, Shift+Enter starts a new line (and IME composition is left alone).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const onPick = (event: ChangeEvent<HTMLInputElement>): void => {
    const files = Array.from(event.target.files ?? []);
    // The same file can be picked again after a Remove.
    event.target.value = '';
    choose(files);
  };
  const length = text.trim().length;
  return (
    <form
      className={dragging ? 'composer composer--dragging' : 'composer'}
      onSubmit={submit}
      aria-label="Send a message"
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
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
        placeholder={blocked ? (blockedWords ?? 'Only members can write here') : 'Write a message'}
        onChange={(e) => {
          dispatch(draftChanged({ channelId, text: e.target.value }));
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
      />
      <div className="composer__buttons">
        <input
          ref={picker}
          type="file"
          className="visually-hidden"
          accept={ATTACHMENT_ACCEPT}
          multiple
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
          title="Attach images or documents (up to 10, 10 MB each; you can also paste or drop them)"
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
      {uploads.length > 0 && (
        <div className="composer-files" aria-label="Files to send" role="group">
          {uploads.map((upload) => (
            <UploadStatus key={upload.uploadId} upload={upload} thumbnail={thumbnails[upload.uploadId]} />
          ))}
        </div>
      )}
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
