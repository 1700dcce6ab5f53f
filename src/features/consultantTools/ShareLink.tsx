// An invitation's link, to copy or (where the Web Share API exists) to share, with what happened said aloud.
import { useState } from 'react';
import type { Invitation } from '@core/model';
import { invitePath } from '@core/paths';
import { formatFullTime } from '@/ui/time';

/** The invitation's absolute link on this origin, for the invitee to open. */
export function invitationLink(id: string, origin: string = window.location.origin): string {
  return `${origin}${invitePath(id)}`;
}

export function ShareLink({ invitation }: { invitation: Invitation }) {
  const link = invitationLink(invitation.id);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  // Each invitation's buttons say whose they are (names unique in their screen).
  const until = formatFullTime(invitation.expiresAt);
  const forWhom = `for ${invitation.inviteeEmail ?? 'anyone with the link'}, valid until ${until}`;
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
        Copy link<span className="visually-hidden"> of the invitation {forWhom}</span>
      </button>
      {canShare && (
        <button type="button" className="button button--small" onClick={() => void share()}>
          Share…<span className="visually-hidden"> the invitation {forWhom}</span>
        </button>
      )}
      <span className="muted" role="status">
        {copied === 'copied' ? 'Copied.' : copied === 'failed' ? 'Select the link and copy it.' : ''}
      </span>
    </div>
  );
}
