// Settings → Profile: "Send read receipts" (core/receipts.ts). On by default; off, nobody sees when this person
// has read their messages and this person sees nobody's (the backend withholds both ways, as WhatsApp does). Saves
// at once; a refusal puts the switch back and says why.
import { useId } from 'react';
import { RECEIPT_WORDS } from '@core/receipts';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { receiptSettingsRequested, selectReceiptSettings } from '@/store/receiptsSlice';

export function ReadReceiptsSwitch() {
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectReceiptSettings);
  const id = useId();
  const hintId = useId();
  return (
    <section className="settings-form card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="settings-form__title">
        Privacy
      </h2>
      <div className="check">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={settings.enabled !== false}
          disabled={settings.enabled === null || settings.status === 'saving'}
          aria-describedby={hintId}
          onChange={(e) => dispatch(receiptSettingsRequested({ enabled: e.target.checked }))}
        />
        <label htmlFor={id}>
          <span className="check__label">{RECEIPT_WORDS.settingLabel}</span>
          <span className="check__hint" id={hintId}>
            {RECEIPT_WORDS.settingHint}
          </span>
        </label>
      </div>
      {settings.status === 'failed' && settings.error && (
        <p className="form-error" role="alert">
          {settings.error}
        </p>
      )}
    </section>
  );
}
