// A message's file: an image drawn inline at its known size (the box is there before the bytes,
// so nothing moves when they arrive), opening full size on a click; a document as a card with its name, size and
// a Download button. The bytes are read through the backend (members only) into an object URL by the attachments
// saga; this screen only asks for them and shows what the store says.
import { useEffect, useRef, useState } from 'react';
import { formatFileSize } from '@core/attachments';
import type { Attachment } from '@core/attachments';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { attachmentFileRequested, selectAttachmentFile } from './attachmentsSlice';
import { ImageViewer } from './ImageViewer';
import './attachments.css';

/** The widest an image is drawn in a bubble, in CSS pixels (narrower screens draw it narrower). */
export const IMAGE_DISPLAY_MAX = 280;

/** The size an image is drawn at: its own, scaled down to fit IMAGE_DISPLAY_MAX wide and as much tall. */
export function displaySize(
  width: number,
  height: number,
  max = IMAGE_DISPLAY_MAX,
): { width: number; height: number } {
  const scale = Math.min(1, max / width, max / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function ImageView({
  channelId,
  attachment,
  max = IMAGE_DISPLAY_MAX,
  onOpen,
}: {
  channelId: string;
  attachment: Attachment;
  max?: number;
  /** Opens the image viewer at this image (in a message's list); without it, a link opens the image. */
  onOpen?: (() => void) | undefined;
}) {
  const dispatch = useAppDispatch();
  const file = useAppSelector((state) => selectAttachmentFile(state, attachment.id));
  useEffect(() => {
    if (!file) dispatch(attachmentFileRequested({ channelId, attachment }));
  }, [dispatch, channelId, attachment, file]);
  const size = displaySize(attachment.width ?? 1, attachment.height ?? 1, max);
  const box = { width: size.width, aspectRatio: `${size.width} / ${size.height}` };
  if (file?.url && onOpen) {
    return (
      <button
        type="button"
        className="attachment attachment--image attachment__open"
        onClick={onOpen}
        aria-label={`Open ${attachment.name}`}
      >
        <img src={file.url} width={size.width} height={size.height} alt={attachment.name} />
      </button>
    );
  }
  if (file?.url) {
    return (
      <a
        className="attachment attachment--image"
        href={file.url}
        target="_blank"
        rel="noopener"
        title={`Open ${attachment.name} full size`}
      >
        <img src={file.url} width={size.width} height={size.height} alt={attachment.name} />
      </a>
    );
  }
  return (
    <div className="attachment attachment--image attachment--placeholder" style={box}>
      {file?.status === 'failed' ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => dispatch(attachmentFileRequested({ channelId, attachment }))}
        >
          Show {attachment.name} again
        </button>
      ) : (
        <span className="visually-hidden">Loading {attachment.name}</span>
      )}
    </div>
  );
}

/** The browser saves the bytes behind `url` under `name` (a download link, clicked). */
function saveAs(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
}

function DocumentView({ channelId, attachment }: { channelId: string; attachment: Attachment }) {
  const dispatch = useAppDispatch();
  const file = useAppSelector((state) => selectAttachmentFile(state, attachment.id));
  // Asked for and not here yet: saved as soon as the bytes arrive (one click, whatever the wait).
  const wanted = useRef(false);
  useEffect(() => {
    if (!wanted.current || !file?.url) return;
    wanted.current = false;
    saveAs(file.url, attachment.name);
  }, [file?.url, attachment.name]);
  const download = () => {
    if (file?.url) {
      saveAs(file.url, attachment.name);
      return;
    }
    wanted.current = true;
    dispatch(attachmentFileRequested({ channelId, attachment }));
  };
  const extension = attachment.name.split('.').at(-1)?.toUpperCase() ?? '';
  return (
    <div className="attachment attachment--document">
      <span className="attachment__badge" aria-hidden="true">
        {extension.slice(0, 4)}
      </span>
      <span className="attachment__about">
        <span className="attachment__name" title={attachment.name}>
          {attachment.name}
        </span>
        <span className="muted">{formatFileSize(attachment.size)}</span>
      </span>
      <button
        type="button"
        className="button button--small"
        onClick={download}
        disabled={file?.status === 'loading'}
      >
        Download<span className="visually-hidden"> {attachment.name}</span>
      </button>
      {file?.status === 'failed' && (
        <p className="form-error attachment__error" role="alert">
          {file.error}
        </p>
      )}
    </div>
  );
}

export function AttachmentView({ channelId, attachment }: { channelId: string; attachment: Attachment }) {
  return attachment.kind === 'image' ? (
    <ImageView channelId={channelId} attachment={attachment} />
  ) : (
    <DocumentView channelId={channelId} attachment={attachment} />
  );
}

/** A message's files in the order sent: several images as a grid of half-width thumbnails, documents below. */
export function AttachmentList({ channelId, attachments }: { channelId: string; attachments: Attachment[] }) {
  const images = attachments.filter((file) => file.kind === 'image');
  const max = images.length > 1 ? IMAGE_DISPLAY_MAX / 2 - 2 : IMAGE_DISPLAY_MAX;
  // Which image the viewer shows, or null when it is closed.
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <div className="attachment-list">
      {images.map((file, index) => (
        <ImageView
          key={file.id}
          channelId={channelId}
          attachment={file}
          max={max}
          onOpen={() => setViewing(index)}
        />
      ))}
      {viewing !== null && (
        <ImageViewer channelId={channelId} images={images} start={viewing} onClose={() => setViewing(null)} />
      )}
      {attachments
        .filter((file) => file.kind !== 'image')
        .map((file) => (
          <DocumentView key={file.id} channelId={channelId} attachment={file} />
        ))}
    </div>
  );
}
