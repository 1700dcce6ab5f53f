// A person's credits and passes as the ledger has them: every movement, newest first, what it did and the
// balance after it, so a balance is explained by its history. A consultant also sees what their services earned
// and which offers were used.
import type { LedgerEntry, LedgerKind, Balance } from '@core/model';
import type { Earnings } from '@core/ledger';
import { formatFullTime } from '@/ui/time';

const KIND_WORDS: Record<LedgerKind, string> = {
  opening: 'Balance brought forward',
  invitation: 'From an invitation',
  grant: 'Granted',
  hold: 'Held for a booking',
  capture: 'Paid (the held price taken)',
  release: 'Given back (the hold released)',
  refund: 'Refunded',
};

function amountWords(b: Balance): string {
  const parts: string[] = [];
  if (b.credits !== 0)
    parts.push(`${Math.abs(b.credits)} ${Math.abs(b.credits) === 1 ? 'credit' : 'credits'}`);
  if (b.passes !== 0) parts.push(`${Math.abs(b.passes)} ${Math.abs(b.passes) === 1 ? 'pass' : 'passes'}`);
  return parts.join(' and ') || 'nothing';
}

function deltaWords(entry: LedgerEntry): string {
  const { delta, amount } = entry;
  if (delta.credits === 0 && delta.passes === 0) return `${amountWords(amount)}, already held`;
  const sign = delta.credits < 0 || delta.passes < 0 ? '−' : '+';
  return `${sign}${amountWords(delta)}`;
}

export function LedgerHistory({
  ledger,
  forConsultant = false,
}: {
  ledger: { entries: LedgerEntry[]; balance: Balance } | null;
  /** A consultant's sessions are paid from their clients' balances, never into one of theirs. */
  forConsultant?: boolean;
}) {
  const empty =
    ledger !== null &&
    ledger.entries.length === 0 &&
    ledger.balance.credits === 0 &&
    ledger.balance.passes === 0;
  return (
    <section aria-labelledby="ledger-title" className="services__section">
      <h2 id="ledger-title">{forConsultant ? 'Your credits and passes' : 'Your history'}</h2>
      {!ledger ? (
        <p className="muted">Loading…</p>
      ) : forConsultant && empty ? (
        <p className="muted">
          You hold no credits or passes: your clients pay for your sessions from their own balances, and what
          a session is paid moves only on their side. What your services earned is under Earnings above; each
          client’s payment is on their booking.
        </p>
      ) : empty ? (
        <p className="muted">
          No credits or passes yet. An invitation from your consultant, or a grant, adds them here, and every
          booking you pay for shows here with what it held and took.
        </p>
      ) : (
        <>
          <p>
            Now: <strong>{amountWords(ledger.balance)}</strong>
            {ledger.balance.credits === 0 && ledger.balance.passes === 0
              ? ''
              : ', the sum of the lines below.'}
          </p>
          {ledger.entries.length === 0 ? (
            <p className="muted">No movements yet.</p>
          ) : (
            <table className="ledger">
              <caption className="visually-hidden">
                Movements of your credits and passes, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Change</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {ledger.entries.map((entry) => (
                  <tr key={entry.id} className={`ledger__row ledger__row--${entry.kind}`}>
                    <td>{formatFullTime(entry.createdAt)}</td>
                    <td>
                      {KIND_WORDS[entry.kind]}
                      {entry.note ? <span className="muted"> · {entry.note}</span> : null}
                    </td>
                    <td>{deltaWords(entry)}</td>
                    <td>
                      {entry.balanceAfter.credits} cr · {entry.balanceAfter.passes} p
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}

export function EarningsSummary({ earnings }: { earnings: Earnings | null }) {
  return (
    <section aria-labelledby="earnings-title" className="services__section">
      <h2 id="earnings-title">Earnings</h2>
      {!earnings || earnings.total.sessions === 0 ? (
        <p className="muted">Confirmed sessions show here with what they earned.</p>
      ) : (
        <>
          <p>
            {earnings.total.sessions} {earnings.total.sessions === 1 ? 'session' : 'sessions'} paid:{' '}
            <strong>{amountWords(earnings.total)}</strong>
          </p>
          <ul className="earnings" aria-label="By service">
            {earnings.services.map((s) => (
              <li key={s.serviceId}>
                {s.serviceTitle}: {s.sessions} · {amountWords(s)}
              </li>
            ))}
          </ul>
          {earnings.offersUsed.length > 0 && (
            <>
              <h3 id="offers-used-title">Offers used</h3>
              <ul aria-labelledby="offers-used-title">
                {earnings.offersUsed.map((o) => (
                  <li key={o.bookingId}>
                    {o.discountPercent} % off {o.serviceTitle}, {formatFullTime(o.startsAt)}: {o.creditsOff}{' '}
                    {o.creditsOff === 1 ? 'credit' : 'credits'} off
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
