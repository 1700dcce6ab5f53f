// Muting the open channel, in the conversation's header: "Mute" opens the choices (for 1 hour,
// for 8 hours, until I turn it back on; and Unmute when muted); while muted it says until when. The change goes
// through the store (mutes saga); a refusal shows in the person's words. Escape closes the choices and focus
// returns to the button that opened them.
import { useEffect, useId, useRef, useState } from 'react';
import type { MuteDuration } from '@core/mutes';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  muteRequested,
  selectMuteError,
  selectMutedUntil,
  selectMuteSaving,
  unmuteRequested,
} from '@/store/mutesSlice';
import { BellOff } from '@/ui/BellOff';
import { mutedWords } from '@/ui/muteWords';
import { useNow } from '@/ui/time';
import './muteControl.css';

const CHOICES: ReadonlyArray<{ duration: MuteDuration; label: string }> = [
  { duration: '1h', label: 'Mute for 1 hour' },
  { duration: '8h', label: 'Mute for 8 hours' },
  { duration: 'forever', label: 'Mute until I turn it back on' },
];

export function MuteControl({ channelId }: { channelId: string }) {
  const dispatch = useAppDispatch();
  const now = useNow(30_000);
  const mutedUntil = useAppSelector((state) => selectMutedUntil(state, channelId));
  const saving = useAppSelector((state) => selectMuteSaving(state, channelId));
  const error = useAppSelector((state) => selectMuteError(state, channelId));
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const words = mutedWords(mutedUntil, now);

  useEffect(() => {
    if (open) menu.current?.querySelector('button')?.focus();
  }, [open]);

  const close = (): void => {
    setOpen(false);
    toggle.current?.focus();
  };
  const choose = (duration: MuteDuration): void => {
    dispatch(muteRequested({ channelId, duration }));
    close();
  };

  return (
    <div
      className="mute"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close();
        }
      }}
      onBlur={(event) => {
        // Focus leaving the control (a click elsewhere, Tab past the last choice) closes the choices.
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        className="button button--small mute__toggle"
        aria-expanded={open}
        aria-controls={menuId}
        disabled={saving}
        onClick={() => setOpen((value) => !value)}
      >
        {words ? (
          <span className="muted-mark">
            <BellOff />
            {words}
          </span>
        ) : saving ? (
          'Saving…'
        ) : (
          'Mute'
        )}
      </button>
      {open && (
        <div ref={menu} id={menuId} className="mute__menu" role="group" aria-label="Mute this channel">
          {CHOICES.map((choice) => (
            <button key={choice.duration} type="button" onClick={() => choose(choice.duration)}>
              {choice.label}
            </button>
          ))}
          {words && (
            <button
              type="button"
              onClick={() => {
                dispatch(unmuteRequested({ channelId }));
                close();
              }}
            >
              Unmute
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
