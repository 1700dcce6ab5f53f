// A channel's owner invites someone: an optional email the invitation is bound to, the passes and credits it
// grants and how many days it runs, whether it is for a private consultation (accepting it starts one with the
// consultant instead of joining the channel), then the link to send. Checked with core's rules before anything is
// sent.
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { isEmail } from '@core/email';
import { VALIDITY_DAYS, expiresAfterDays, isValidityDays } from '@core/expiry';
import { isInvitationGrant } from '@core/invitations';
import { LIMITS } from '@core/limits';
import type { Channel } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  invitationCreateDismissed,
  invitationCreateRequested,
  selectInvitationCreate,
} from '@/store/invitationsSlice';
import { readWholeNumber } from './formNumbers';
import { ShareLink } from './ShareLink';

export function InvitationForm({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const create = useAppSelector(selectInvitationCreate);
  const ids = { email: useId(), passes: useId(), credits: useId(), days: useId(), private: useId() };
  const [privateConsultation, setPrivateConsultation] = useState(false);
  const [email, setEmail] = useState('');
  const [passes, setPasses] = useState('1');
  const [credits, setCredits] = useState('0');
  const [days, setDays] = useState('14');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void dispatch(invitationCreateDismissed()), [dispatch, channel.id]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const p = readWholeNumber(passes);
    const c = readWholeNumber(credits);
    const d = readWholeNumber(days);
    const trimmed = email.trim();
    if (trimmed !== '' && !isEmail(trimmed))
      return setProblem('Enter an email like name@example.com, or leave it empty.');
    if (!isInvitationGrant(p) || !isInvitationGrant(c))
      return setProblem(`Passes and credits are whole numbers from 0 to ${LIMITS.invitationGrantMax}.`);
    if (!isValidityDays(d))
      return setProblem(`An invitation lasts ${VALIDITY_DAYS.min} to ${VALIDITY_DAYS.max} days.`);
    setProblem(null);
    dispatch(
      invitationCreateRequested({
        channelId: channel.id,
        ...(trimmed ? { inviteeEmail: trimmed } : {}),
        passes: p,
        credits: c,
        expiresAt: expiresAfterDays(d, Date.now()),
        ...(privateConsultation ? { privateConsultation: true } : {}),
      }),
    );
  };

  return (
    <>
      <form className="manage__form" onSubmit={submit} aria-label="Invite someone" noValidate>
        <div className="field">
          <label htmlFor={ids.email}>Their email (optional)</label>
          <input
            id={ids.email}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-describedby={`${ids.email}-hint`}
          />
          <p className="field__hint" id={`${ids.email}-hint`}>
            With an email, only that account can accept. Without one, the first person with the link can.
          </p>
        </div>
        <div className="offer-form__fields">
          <div className="field">
            <label htmlFor={ids.passes}>Passes</label>
            <input
              id={ids.passes}
              inputMode="numeric"
              value={passes}
              onChange={(e) => setPasses(e.target.value)}
              aria-describedby={`${ids.passes}-hint`}
            />
            <p className="field__hint" id={`${ids.passes}-hint`}>
              Session passes: each pays for one booking of any of your services.
            </p>
          </div>
          <div className="field">
            <label htmlFor={ids.credits}>Credits</label>
            <input
              id={ids.credits}
              inputMode="numeric"
              value={credits}
              onChange={(e) => setCredits(e.target.value)}
              aria-describedby={`${ids.credits}-hint`}
            />
            <p className="field__hint" id={`${ids.credits}-hint`}>
              Prepaid balance, spent on your services at their price.
            </p>
          </div>
          <div className="field">
            <label htmlFor={ids.days}>Valid for (days)</label>
            <input id={ids.days} inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
          </div>
        </div>
        <div className="private-option">
          <input
            id={ids.private}
            type="checkbox"
            checked={privateConsultation}
            onChange={(e) => setPrivateConsultation(e.target.checked)}
          />
          <label htmlFor={ids.private}>
            <span className="private-option__label">For a private consultation</span>
            <span className="private-option__hint">
              Accepting it starts a private conversation between you and them, instead of joining this
              channel.
            </span>
          </label>
        </div>
        {(problem || create.status === 'failed') && (
          <p className="form-error" role="alert">
            {problem ?? create.error}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={create.status === 'sending'}>
            {create.status === 'sending' ? 'Creating…' : 'Create invitation'}
          </button>
        </div>
      </form>
      {create.status === 'created' && create.created && (
        <div className="card manage__created" role="status">
          <p>
            {create.created.privateConsultation === true ? 'Private consultation invitation' : 'Invitation'}{' '}
            ready{create.created.inviteeEmail ? ` for ${create.created.inviteeEmail}` : ''}. Send them this
            link:
          </p>
          <ShareLink invitation={create.created} />
        </div>
      )}
    </>
  );
}
