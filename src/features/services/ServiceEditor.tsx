// A consultant's services: each one's title, description, length and price, edited in place, archived (clients can
// no longer book it; its bookings keep it) or restored; and a new one. Limits come from core/catalog.ts, so the form
// refuses what the backend would, and the backend's refusal (a duplicate title) is shown where it was asked.
import { useState } from 'react';
import type { Service } from '@core/model';
import { SERVICE_LIMITS } from '@core/catalog';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectPractice, serviceSaveRequested } from '@/store/practiceSlice';

interface Fields {
  title: string;
  description: string;
  durationMinutes: string;
  priceCredits: string;
}

const BLANK: Fields = { title: '', description: '', durationMinutes: '60', priceCredits: '1' };

function fieldsOf(service: Service): Fields {
  return {
    title: service.title,
    description: service.description,
    durationMinutes: String(service.durationMinutes),
    priceCredits: String(service.priceCredits),
  };
}

function ServiceForm({
  service,
  onDone,
}: {
  /** null: a new service. */
  service: Service | null;
  onDone: () => void;
}) {
  const dispatch = useAppDispatch();
  const { change, changeError } = useAppSelector(selectPractice);
  const [fields, setFields] = useState<Fields>(service ? fieldsOf(service) : BLANK);
  const targetId = service?.id ?? '';
  const saving = change?.kind === 'service' && change.targetId === targetId;
  const refusal =
    changeError?.kind === 'service' && changeError.targetId === targetId ? changeError.message : null;
  const set = (key: keyof Fields) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setFields({ ...fields, [key]: e.target.value });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const values = {
      title: fields.title.trim(),
      description: fields.description.trim(),
      durationMinutes: Number(fields.durationMinutes),
      priceCredits: Number(fields.priceCredits),
    };
    dispatch(
      service
        ? serviceSaveRequested({ serviceId: service.id, patch: values })
        : serviceSaveRequested({ serviceId: null, service: values }),
    );
  };
  return (
    <form
      className="service-form"
      onSubmit={submit}
      aria-label={service ? `Edit ${service.title}` : 'New service'}
    >
      <label className="field">
        <span>Title</span>
        <input value={fields.title} onChange={set('title')} required maxLength={SERVICE_LIMITS.titleMax} />
      </label>
      <label className="field">
        <span>Description</span>
        <textarea
          value={fields.description}
          onChange={set('description')}
          maxLength={SERVICE_LIMITS.descriptionMax}
          rows={2}
        />
      </label>
      <div className="service-form__numbers">
        <label className="field">
          <span>Minutes</span>
          <input
            type="number"
            value={fields.durationMinutes}
            onChange={set('durationMinutes')}
            min={SERVICE_LIMITS.durationMin}
            max={SERVICE_LIMITS.durationMax}
            step={SERVICE_LIMITS.durationStep}
            required
          />
        </label>
        <label className="field">
          <span>Price in credits</span>
          <input
            type="number"
            value={fields.priceCredits}
            onChange={set('priceCredits')}
            min={0}
            max={SERVICE_LIMITS.priceMax}
            step={1}
            required
          />
        </label>
      </div>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : service ? 'Save' : 'Offer this service'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {service ? 'Back' : 'Not now'}
        </button>
      </div>
    </form>
  );
}

export function ServiceEditor({ services }: { services: readonly Service[] }) {
  const dispatch = useAppDispatch();
  const { done, change } = useAppSelector(selectPractice);
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  // A form closes once its save is done; a refused one stays open with the refusal.
  const [seen, setSeen] = useState(done);
  if (seen !== done) {
    setSeen(done);
    if (done?.kind === 'service') {
      setAdding(false);
      setEditing(null);
    }
  }
  return (
    <section aria-labelledby="own-services-title" className="services__section">
      <h2 id="own-services-title">Your services</h2>
      {done?.kind === 'service' && (
        <p className="muted" role="status">
          {done.words}
        </p>
      )}
      {services.length === 0 && <p className="muted">Clients book your services here once you offer one.</p>}
      <ul className="service-list">
        {services.map((service) => (
          <li key={service.id} className={`card service service--${service.status}`}>
            {editing === service.id ? (
              <ServiceForm service={service} onDone={() => setEditing(null)} />
            ) : (
              <>
                <h3>
                  {service.title}
                  {service.status === 'archived' && <span className="muted"> · archived</span>}
                </h3>
                {service.description && <p className="muted">{service.description}</p>}
                <p className="service__meta">
                  {service.durationMinutes} min · {service.priceCredits}{' '}
                  {service.priceCredits === 1 ? 'credit' : 'credits'}
                </p>
                <div className="form-actions">
                  <button type="button" className="button" onClick={() => setEditing(service.id)}>
                    Edit<span className="visually-hidden"> {service.title}</span>
                  </button>
                  <button
                    type="button"
                    className="button"
                    disabled={change?.kind === 'service' && change.targetId === service.id}
                    onClick={() =>
                      dispatch(
                        serviceSaveRequested({
                          serviceId: service.id,
                          patch: { status: service.status === 'active' ? 'archived' : 'active' },
                        }),
                      )
                    }
                  >
                    {service.status === 'active' ? 'Archive' : 'Restore'}
                    <span className="visually-hidden"> {service.title}</span>
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      {adding ? (
        <div className="card">
          <h3>New service</h3>
          <ServiceForm service={null} onDone={() => setAdding(false)} />
        </div>
      ) : (
        <button type="button" className="button button--primary" onClick={() => setAdding(true)}>
          New service
        </button>
      )}
    </section>
  );
}
