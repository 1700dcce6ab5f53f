// A channel's owner manages it (issue #6): edit its title and description, see its members and send one of them
// an offer, invite people (passes, credits, expiry) and copy or share the invitation link.
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { LIMITS } from '@core/limits';
import type { Channel, ChannelMember, Invitation } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import {
  channelInvitationsRequested,
  invitationCreateDismissed,
  invitationCreateRequested,
  selectChannelInvitations,
  selectInvitationCreate,
} from '@/store/invitationsSlice';
import { offerIssueDismissed, offerIssueRequested, selectOfferIssue } from '@/store/offersSlice';
import { grantWords } from '@/ui/grantWords';
import { formatFullTime } from '@/ui/time';
import {
  channelSaveDismissed,
  channelUpdateRequested,
  membersRequested,
  selectChannelSave,
  selectMembers,
} from './manageSlice';

const DAY = 24 * 60 * 60 * 1000;
type Tab = 'details' | 'members' | 'invite';
const TABS: Array<[Tab, string]> = [
  ['details', 'Details'],
  ['members', 'Members'],
  ['invite', 'Invite'],
];

/** A whole number from a form field within [min, max], or null. */
export function wholeNumber(value: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

export function invitationLink(id: string, origin: string = window.location.origin): string {
  return `${origin}/invite/${id}`;
}

function Details({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const save = useAppSelector(selectChannelSave);
  const ids = { title: useId(), description: useId() };
  const [title, setTitle] = useState(channel.title);
  const [description, setDescription] = useState(channel.description);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void dispatch(channelSaveDismissed()), [dispatch]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (title.trim() === '') return setProblem('Give the channel a title.');
    setProblem(null);
    dispatch(
      channelUpdateRequested({
        id: channel.id,
        patch: { title: title.trim(), description: description.trim() },
      }),
    );
  };
  const mine = save.channelId === channel.id;
  return (
    <form className="manage__form" onSubmit={submit} aria-label="Channel details" noValidate>
      <div className="field">
        <label htmlFor={ids.title}>Title</label>
        <input
          id={ids.title}
          value={title}
          maxLength={LIMITS.channelTitleMax}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <textarea
          id={ids.description}
          rows={3}
          value={description}
          maxLength={LIMITS.channelDescriptionMax}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <p className="muted">
        Handle: <code className="path">{channel.channelId}</code>
      </p>
      {(problem || (mine && save.status === 'failed')) && (
        <p className="form-error" role="alert">
          {problem ?? save.error}
        </p>
      )}
      {mine && save.status === 'saved' && (
        <p className="form-success" role="status">
          Saved.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={mine && save.status === 'saving'}>
          {mine && save.status === 'saving' ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

function OfferForm({
  channel,
  member,
  onDone,
}: {
  channel: Channel;
  member: ChannelMember;
  onDone: () => void;
}) {
  const dispatch = useAppDispatch();
  const issue = useAppSelector(selectOfferIssue);
  const ids = { discount: useId(), days: useId(), source: useId() };
  const [discount, setDiscount] = useState('10');
  const [days, setDays] = useState('7');
  const [source, setSource] = useState(channel.title);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => void dispatch(offerIssueDismissed()), [dispatch]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const percent = wholeNumber(discount, LIMITS.discountMin, LIMITS.discountMax);
    if (percent === null) return setProblem('A discount is a whole percent from 1 to 100.');
    const validDays = wholeNumber(days, 1, 365);
    if (validDays === null) return setProblem('An offer lasts 1 to 365 days.');
    setProblem(null);
    dispatch(
      offerIssueRequested({
        channelId: channel.id,
        userId: member.uid,
        discountPercent: percent,
        source: source.trim() || channel.title,
        expiresAt: Date.now() + validDays * DAY,
      }),
    );
  };

  if (issue.status === 'sent' && issue.last?.userId === member.uid) {
    return (
      <div className="offer-form" role="status">
        <p className="form-success">
          Sent {member.name} {issue.last.discountPercent} % off, until {formatFullTime(issue.last.expiresAt)}.
        </p>
        <button type="button" className="button button--small" onClick={onDone}>
          Done
        </button>
      </div>
    );
  }
  return (
    <form className="offer-form" onSubmit={submit} aria-label={`Offer for ${member.name}`} noValidate>
      <div className="offer-form__fields">
        <div className="field">
          <label htmlFor={ids.discount}>Discount (%)</label>
          <input
            id={ids.discount}
            inputMode="numeric"
            value={discount}
            onChange={(e) => setDiscount(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.days}>Valid for (days)</label>
          <input id={ids.days} inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.source}>For</label>
          <input
            id={ids.source}
            value={source}
            maxLength={LIMITS.offerSourceMax}
            onChange={(e) => setSource(e.target.value)}
          />
        </div>
      </div>
      {(problem || issue.status === 'failed') && (
        <p className="form-error" role="alert">
          {problem ?? issue.error}
        </p>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="button button--primary button--small"
          disabled={issue.status === 'sending'}
        >
          {issue.status === 'sending' ? 'Sending…' : 'Send offer'}
        </button>
        <button type="button" className="button button--quiet button--small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Members({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector((state) => selectMembers(state, channel.id));
  const [offering, setOffering] = useState<string | null>(null);
  useEffect(() => {
    dispatch(membersRequested({ channelId: channel.id }));
  }, [dispatch, channel.id, channel.members.length]);

  if (!members || members.status === 'loading' || members.status === 'idle') {
    return (
      <p className="muted" role="status">
        Loading members…
      </p>
    );
  }
  if (members.status === 'failed') {
    return (
      <p className="form-error" role="alert">
        {members.error}
      </p>
    );
  }
  return (
    <ul className="members">
      {members.items.map((member) => (
        <li key={member.uid} className="members__item">
          <div className="members__row">
            <span>
              <span className="members__name">{member.name}</span>{' '}
              <span className="muted">
                {member.role === 'owner'
                  ? 'owner'
                  : `joined ${new Date(member.joinedAt).toLocaleDateString()}`}
              </span>
            </span>
            {member.role === 'member' && offering !== member.uid && (
              <button type="button" className="button button--small" onClick={() => setOffering(member.uid)}>
                Send offer
              </button>
            )}
          </div>
          {offering === member.uid && (
            <OfferForm channel={channel} member={member} onDone={() => setOffering(null)} />
          )}
        </li>
      ))}
      {members.items.length <= 1 && <li className="muted">No members yet: invite someone.</li>}
    </ul>
  );
}

function ShareLink({ invitation }: { invitation: Invitation }) {
  const link = invitationLink(invitation.id);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  const share = async (): Promise<void> => {
    try {
      await navigator.share({ title: `Join ${invitation.channelTitle} on QuPM`, url: link });
    } catch {
      // Closing the share sheet is not an error worth showing.
    }
  };
  return (
    <div className="share-link">
      <label className="visually-hidden" htmlFor={`link-${invitation.id}`}>
        Invitation link
      </label>
      <input id={`link-${invitation.id}`} readOnly value={link} onFocus={(e) => e.target.select()} />
      <button type="button" className="button button--small" onClick={() => void copy()}>
        Copy link
      </button>
      {canShare && (
        <button type="button" className="button button--small" onClick={() => void share()}>
          Share…
        </button>
      )}
      <span className="muted" role="status">
        {copied === 'copied' ? 'Copied.' : copied === 'failed' ? 'Select the link and copy it.' : ''}
      </span>
    </div>
  );
}

const STATUS_WORDS: Record<Invitation['status'], string> = {
  pending: 'waiting',
  accepted: 'accepted',
  activated: 'activated',
  expired: 'expired',
};

function Invite({ channel }: { channel: Channel }) {
  const dispatch = useAppDispatch();
  const create = useAppSelector(selectInvitationCreate);
  const list = useAppSelector((state) => selectChannelInvitations(state, channel.id));
  const ids = { email: useId(), passes: useId(), credits: useId(), days: useId() };
  const [email, setEmail] = useState('');
  const [passes, setPasses] = useState('1');
  const [credits, setCredits] = useState('0');
  const [days, setDays] = useState('14');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    dispatch(channelInvitationsRequested({ channelId: channel.id }));
    return () => void dispatch(invitationCreateDismissed());
  }, [dispatch, channel.id]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const p = wholeNumber(passes, 0, LIMITS.invitationGrantMax);
    const c = wholeNumber(credits, 0, LIMITS.invitationGrantMax);
    const d = wholeNumber(days, 1, 365);
    const trimmed = email.trim();
    if (trimmed !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed))
      return setProblem('Enter an email like name@example.com, or leave it empty.');
    if (p === null || c === null)
      return setProblem(`Passes and credits are whole numbers from 0 to ${LIMITS.invitationGrantMax}.`);
    if (d === null) return setProblem('An invitation lasts 1 to 365 days.');
    setProblem(null);
    dispatch(
      invitationCreateRequested({
        channelId: channel.id,
        ...(trimmed ? { inviteeEmail: trimmed } : {}),
        passes: p,
        credits: c,
        expiresAt: Date.now() + d * DAY,
      }),
    );
  };

  return (
    <div className="manage__invite">
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
            />
          </div>
          <div className="field">
            <label htmlFor={ids.credits}>Credits</label>
            <input
              id={ids.credits}
              inputMode="numeric"
              value={credits}
              onChange={(e) => setCredits(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.days}>Valid for (days)</label>
            <input id={ids.days} inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
          </div>
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
            Invitation ready{create.created.inviteeEmail ? ` for ${create.created.inviteeEmail}` : ''}. Send
            them this link:
          </p>
          <ShareLink invitation={create.created} />
        </div>
      )}
      <h3 className="manage__subtitle">Invitations</h3>
      {!list || list.status === 'loading' ? (
        <p className="muted" role="status">
          Loading invitations…
        </p>
      ) : list.items.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="invitations">
          {list.items.map((invitation) => (
            <li key={invitation.id} className="invitations__item">
              <span>
                {invitation.inviteeEmail ?? 'Anyone with the link'} · {grantWords(invitation)} ·{' '}
                <span className={`status status--${invitation.status}`}>
                  {STATUS_WORDS[invitation.status]}
                </span>
              </span>
              {invitation.status === 'pending' && <ShareLink invitation={invitation} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ManagePanel({ channel }: { channel: Channel }) {
  const [tab, setTab] = useState<Tab>('details');
  const base = useId();
  return (
    <div className="manage">
      <div className="tabs" role="tablist" aria-label="Manage channel">
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${base}-${id}-tab`}
            aria-selected={tab === id}
            aria-controls={`${base}-${id}-panel`}
            className={tab === id ? 'tab tab--active' : 'tab'}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${base}-${tab}-panel`}
        aria-labelledby={`${base}-${tab}-tab`}
        className="manage__panel"
      >
        {tab === 'details' && <Details channel={channel} />}
        {tab === 'members' && <Members channel={channel} />}
        {tab === 'invite' && <Invite channel={channel} />}
      </div>
    </div>
  );
}
