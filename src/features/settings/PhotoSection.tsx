// Settings → Profile's picture: the face others see (src/ui/Avatar.tsx), chosen from a file, cropped to a square
// the person moves and zooms (drag, arrow keys, the slider), scaled in the browser (photoCrop.ts) and sent; or
// removed, leaving initials. A file that is not a picture, or far too large, is refused with words before any
// upload; the backend refuses what gets past (core/photos.ts), in the same words.
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, KeyboardEvent, PointerEvent } from 'react';
import { checkPhotoSource, PHOTO_MESSAGES } from '@core/photos';
import { Avatar } from '@/ui/Avatar';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectUid, selectUser } from '@/store/userSlice';
import { holdPicture } from './pendingPhoto';
import { boundedCrop, CENTRE, decodePicture, dragged, drawCrop, renderPicture, ZOOM_MAX } from './photoCrop';
import type { Crop, Picture } from './photoCrop';
import {
  photoFailed,
  photoRemoveRequested,
  photoRequested,
  photoSaveRequested,
  selectPhoto,
} from './photoSlice';
import './photo.css';

/** The preview's side in CSS pixels (drawn at twice that for sharp screens). */
const PREVIEW_PX = 200;
/** An arrow key moves the square by this much of its travel. */
const KEY_STEP = 0.1;

export function PhotoSection() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const uid = useAppSelector(selectUid) ?? '';
  const photo = useAppSelector(selectPhoto);
  const [picture, setPicture] = useState<(Picture & { close(): void }) | null>(null);
  const [crop, setCrop] = useState<Crop>(CENTRE);
  const [problem, setProblem] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const inputId = useId();
  const zoomId = useId();
  const name = user.nickname || user.authUser?.email.split('@')[0] || '';

  useEffect(() => {
    dispatch(photoRequested());
  }, [dispatch]);
  useEffect(() => {
    if (picture && canvas.current) drawCrop(canvas.current, picture, crop);
  }, [picture, crop]);
  // A picture decoded and not used is let go (its bitmap holds the decoded pixels).
  useEffect(() => () => picture?.close(), [picture]);

  const choose = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const refused = checkPhotoSource(file);
    if (refused) {
      setProblem(PHOTO_MESSAGES[refused]);
      return;
    }
    setProblem(null);
    try {
      setPicture(await decodePicture(file));
      setCrop(CENTRE);
    } catch {
      setProblem(PHOTO_MESSAGES.notImage);
    }
  };

  const use = async (): Promise<void> => {
    if (!picture) return;
    setPreparing(true);
    try {
      const blob = await renderPicture(picture, crop);
      dispatch(photoSaveRequested({ pictureId: holdPicture(blob) }));
      // Back to the face: it shows the new one once the backend has it ("Saving…" meanwhile).
      setPicture(null);
    } catch {
      dispatch(photoFailed({ message: PHOTO_MESSAGES.notImage }));
    } finally {
      setPreparing(false);
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>): void => {
    drag.current = { x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>): void => {
    if (!drag.current || !picture) return;
    const { x, y } = drag.current;
    drag.current = { x: event.clientX, y: event.clientY };
    setCrop((c) =>
      dragged(c, event.clientX - x, event.clientY - y, picture.width, picture.height, PREVIEW_PX),
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>): void => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-KEY_STEP, 0],
      ArrowRight: [KEY_STEP, 0],
      ArrowUp: [0, -KEY_STEP],
      ArrowDown: [0, KEY_STEP],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setCrop((c) => boundedCrop({ ...c, x: c.x + move[0], y: c.y + move[1] }));
  };

  const busy = photo.status === 'saving' || photo.status === 'removing' || preparing;
  const error = problem ?? (photo.status === 'failed' ? photo.error : null);

  return (
    <section className="settings-form card photo-section" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="photo-section__title">
        Profile picture
      </h2>
      {picture ? (
        <div className="photo-crop">
          <canvas
            ref={canvas}
            className="photo-crop__preview"
            width={PREVIEW_PX * 2}
            height={PREVIEW_PX * 2}
            tabIndex={0}
            role="img"
            aria-label="Your new picture: drag it, or use the arrow keys, to choose what shows"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (drag.current = null)}
            onPointerCancel={() => (drag.current = null)}
            onKeyDown={onKeyDown}
          />
          <div className="field photo-crop__zoom">
            <label htmlFor={zoomId}>Zoom</label>
            <input
              id={zoomId}
              type="range"
              min={1}
              max={ZOOM_MAX}
              step={0.05}
              value={crop.zoom}
              onChange={(e) => setCrop((c) => boundedCrop({ ...c, zoom: Number(e.target.value) }))}
            />
          </div>
          <div className="settings-form__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => void use()}
            >
              {busy ? 'Saving…' : 'Use this picture'}
            </button>
            <button
              type="button"
              className="button button--quiet"
              disabled={busy}
              onClick={() => setPicture(null)}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className="photo-section__current">
          <Avatar
            id={uid}
            name={name}
            photoURL={photo.url ?? undefined}
            size="large"
            label="Your profile picture"
          />
          <div className="photo-section__actions">
            <input
              id={inputId}
              className="visually-hidden photo-section__file"
              type="file"
              accept="image/*"
              disabled={busy}
              onChange={(e) => void choose(e)}
            />
            <label htmlFor={inputId} className="button button--small">
              {photo.url ? 'Choose another picture' : 'Choose a picture'}
            </label>
            {photo.url && (
              <button
                type="button"
                className="button button--small button--quiet"
                disabled={busy}
                onClick={() => dispatch(photoRemoveRequested())}
              >
                {photo.status === 'removing' ? 'Removing…' : 'Remove picture'}
              </button>
            )}
            <p className="field__hint">A square of it shows beside your name and messages.</p>
          </div>
        </div>
      )}
      <p className="settings-form__status" role="status">
        {photo.status === 'saving' && <span>Saving your picture…</span>}
        {photo.status === 'saved' && <span className="form-success">Picture saved.</span>}
        {photo.status === 'removed' && <span className="form-success">Picture removed.</span>}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
