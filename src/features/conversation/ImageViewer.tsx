// The image viewer: a message's images full screen, one at a time, as a messenger shows them. Arrows (keys,
// buttons, a swipe) go to the next and previous image of the message; +/- , a double click, a pinch or Ctrl+wheel
// zoom (dragging pans a zoomed image); Escape or Close leaves, and focus goes back to the thumbnail that opened it.
// Focus stays inside while it is open (a modal dialog). The bytes are the ones the conversation already read
// (the attachments saga's object URLs); an image not read yet is asked for here.
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, WheelEvent } from 'react';
import type { Attachment } from '@core/attachments';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { attachmentFileRequested, selectAttachmentFile } from './attachmentsSlice';
import './imageViewer.css';

/** The zoom a viewer allows: the image as fitted (1) up to four times that. */
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 4;
/** How far (CSS pixels) a finger moves sideways before a swipe turns the page. */
export const SWIPE_DISTANCE = 50;

const clampZoom = (zoom: number): number => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));

interface Point {
  x: number;
  y: number;
}

const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

export function ImageViewer({
  channelId,
  images,
  start,
  onClose,
}: {
  channelId: string;
  images: Attachment[];
  start: number;
  onClose: () => void;
}) {
  const dispatch = useAppDispatch();
  const [index, setIndex] = useState(start);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState<Point>({ x: 0, y: 0 });
  const image = images[index] ?? images[0];
  const file = useAppSelector((state) => (image ? selectAttachmentFile(state, image.id) : undefined));
  const dialog = useRef<HTMLDivElement>(null);
  // The pointers down on the image, for swipes, pinches and pans.
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<{ start: Point; pinch: number | null; zoom: number; offset: Point } | null>(null);

  useEffect(() => {
    if (image && !file) dispatch(attachmentFileRequested({ channelId, attachment: image }));
  }, [dispatch, channelId, image, file]);

  // Focus moves in when it opens (to Close), and back to what had it when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => before?.focus();
  }, []);

  const go = (step: number): void => {
    if (images.length < 2) return;
    setIndex((current) => (current + step + images.length) % images.length);
    setZoom(1);
    setOffset({ x: 0, y: 0 });
  };
  const zoomTo = (next: number): void => {
    const clamped = clampZoom(next);
    setZoom(clamped);
    if (clamped === 1) setOffset({ x: 0, y: 0 });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowRight') go(1);
    else if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === '+' || event.key === '=') zoomTo(zoom * 1.5);
    else if (event.key === '-') zoomTo(zoom / 1.5);
    else if (event.key === 'Tab') {
      // The focus trap: Tab and Shift+Tab go round the viewer's own controls.
      const controls = Array.from(
        dialog.current?.querySelectorAll<HTMLElement>('button:not([disabled])') ?? [],
      );
      const first = controls[0];
      const last = controls.at(-1);
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    } else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const [a, b] = [...pointers.current.values()];
    gesture.current = {
      start: { x: event.clientX, y: event.clientY },
      pinch: a && b ? distance(a, b) : null,
      zoom,
      offset,
    };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const [a, b] = [...pointers.current.values()];
    const { pinch, start: from, zoom: startZoom, offset: startOffset } = gesture.current;
    if (a && b && pinch) {
      zoomTo(startZoom * (distance(a, b) / pinch));
    } else if (startZoom > 1) {
      setOffset({ x: startOffset.x + event.clientX - from.x, y: startOffset.y + event.clientY - from.y });
    }
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>): void => {
    const current = gesture.current;
    pointers.current.delete(event.pointerId);
    if (pointers.current.size > 0) return;
    gesture.current = null;
    // A swipe turns the page only on an image that is not zoomed (then a drag pans it).
    if (!current || current.pinch !== null || current.zoom > 1) return;
    const dx = event.clientX - current.start.x;
    const dy = event.clientY - current.start.y;
    if (Math.abs(dx) >= SWIPE_DISTANCE && Math.abs(dx) > Math.abs(dy)) go(dx < 0 ? 1 : -1);
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>): void => {
    // Ctrl+wheel is also what a laptop's trackpad pinch sends.
    if (!event.ctrlKey) return;
    zoomTo(zoom * (event.deltaY < 0 ? 1.25 : 0.8));
  };

  if (!image) return null;
  const position = images.length > 1 ? `Image ${index + 1} of ${images.length}: ` : '';
  return (
    <div
      ref={dialog}
      className="image-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={`${position}${image.name}`}
      onKeyDown={onKeyDown}
    >
      <div className="image-viewer__bar">
        <p className="image-viewer__title" dir="auto">
          {position}
          {image.name}
        </p>
        <button
          type="button"
          className="button button--small"
          onClick={() => zoomTo(zoom / 1.5)}
          disabled={zoom <= ZOOM_MIN}
          aria-label="Zoom out"
        >
          −
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => zoomTo(zoom * 1.5)}
          disabled={zoom >= ZOOM_MAX}
          aria-label="Zoom in"
        >
          +
        </button>
        <button type="button" className="button button--small" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
      <div
        className="image-viewer__stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
        onDoubleClick={() => zoomTo(zoom > 1 ? 1 : 2)}
      >
        {file?.url ? (
          <img
            className="image-viewer__image"
            src={file.url}
            alt={image.name}
            width={image.width}
            height={image.height}
            draggable={false}
            style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${zoom})` }}
          />
        ) : (
          <p className="image-viewer__status" role="status">
            {file?.status === 'failed' ? file.error : `Loading ${image.name}…`}
          </p>
        )}
      </div>
      {images.length > 1 && (
        <>
          <button
            type="button"
            className="image-viewer__turn image-viewer__turn--previous"
            onClick={() => go(-1)}
            aria-label="Previous image"
          >
            ‹
          </button>
          <button
            type="button"
            className="image-viewer__turn image-viewer__turn--next"
            onClick={() => go(1)}
            aria-label="Next image"
          >
            ›
          </button>
        </>
      )}
    </div>
  );
}
