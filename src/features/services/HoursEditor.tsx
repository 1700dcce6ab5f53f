// A consultant's weekly hours: wall-clock intervals on the quarter hour in the time zone they choose (their
// browser's at first). Clients see the free times these make in their own zone; core/availability.ts checks the
// intervals, and the backend's refusal is shown here. Its parent keys it by the saved hours' time, so hours saved
// elsewhere (another window) start it afresh.
import { useMemo, useState } from 'react';
import type { Availability, HoursInterval } from '@core/model';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { hoursSaveRequested, selectPractice } from '@/store/practiceSlice';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Every quarter hour of a day, and 24:00 for an end. */
const CLOCKS = Array.from({ length: 97 }, (_, i) => {
  const h = Math.floor(i / 4);
  const m = (i % 4) * 15;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
});

function zones(current: string): string[] {
  const all =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC', current];
  return all.includes(current) ? all : [current, ...all];
}

export function HoursEditor({ availability }: { availability: Availability | null }) {
  const dispatch = useAppDispatch();
  const { change, changeError, done } = useAppSelector(selectPractice);
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [timeZone, setTimeZone] = useState(availability?.timeZone ?? browserZone);
  const [hours, setHours] = useState<HoursInterval[]>(availability?.hours ?? []);
  const zoneList = useMemo(() => zones(timeZone), [timeZone]);
  const saving = change?.kind === 'hours';
  const update = (i: number, patch: Partial<HoursInterval>) =>
    setHours(hours.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  return (
    <section aria-labelledby="hours-title" className="services__section">
      <h2 id="hours-title">Your hours</h2>
      <form
        className="card hours"
        aria-labelledby="hours-title"
        onSubmit={(e) => {
          e.preventDefault();
          dispatch(hoursSaveRequested({ timeZone, hours }));
        }}
      >
        <label className="field">
          <span>Time zone</span>
          <select value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
            {zoneList.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        {hours.length === 0 && (
          <p className="muted">No hours yet: clients cannot book you until you add some.</p>
        )}
        <ul className="hours__list">
          {hours.map((h, i) => (
            <li key={i} className="hours__row">
              <select
                aria-label="Day"
                value={h.day}
                onChange={(e) => update(i, { day: Number(e.target.value) })}
              >
                {DAYS.map((d, n) => (
                  <option key={d} value={n + 1}>
                    {d}
                  </option>
                ))}
              </select>
              <select
                aria-label="From"
                value={h.start}
                onChange={(e) => update(i, { start: e.target.value })}
              >
                {CLOCKS.slice(0, -1).map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
              <span aria-hidden="true">–</span>
              <select aria-label="To" value={h.end} onChange={(e) => update(i, { end: e.target.value })}>
                {CLOCKS.slice(1).map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
              <button
                type="button"
                className="button"
                onClick={() => setHours(hours.filter((_, j) => j !== i))}
              >
                Remove
                <span className="visually-hidden">
                  {' '}
                  {DAYS[h.day - 1]} {h.start}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {changeError?.kind === 'hours' && (
          <p className="form-error" role="alert">
            {changeError.message}
          </p>
        )}
        {done?.kind === 'hours' && (
          <p className="muted" role="status">
            {done.words}
          </p>
        )}
        <div className="form-actions">
          <button
            type="button"
            className="button"
            onClick={() => setHours([...hours, { day: 1, start: '09:00', end: '17:00' }])}
          >
            Add hours
          </button>
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save hours'}
          </button>
        </div>
      </form>
    </section>
  );
}
