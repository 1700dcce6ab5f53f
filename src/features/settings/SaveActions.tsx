// The foot of a settings form: the Save button, "Saved." once it is, and the error when it is not.
import type { SaveStatus } from './settingsSlice';

export function SaveActions({ save }: { save: { status: SaveStatus; error: string | null } }) {
  return (
    <>
      <div className="settings-form__actions">
        <button type="submit" className="button button--primary" disabled={save.status === 'saving'}>
          {save.status === 'saving' ? 'Saving…' : 'Save'}
        </button>
        <p className="settings-form__status" role="status">
          {save.status === 'saved' && <span className="form-success">Saved.</span>}
        </p>
      </div>
      {save.status === 'failed' && save.error && (
        <p className="form-error" role="alert">
          {save.error}
        </p>
      )}
    </>
  );
}
