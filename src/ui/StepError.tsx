// A housekeeping step's refusal (src/store/housekeepingSlice.ts), in the backend's words, until the person
// closes it; with the steps' styles, so each screen that offers a step (Manage, /services, Admin) has them.
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectStep, stepDismissed, stepKey } from '@/store/housekeepingSlice';
import type { StepKind } from '@/store/housekeepingSlice';
import './housekeeping.css';

/** A step's refusal, in the backend's words, until the person closes it. */
export function StepError({ kind, target }: { kind: StepKind; target: string }) {
  const dispatch = useAppDispatch();
  const key = stepKey(kind, target);
  const step = useAppSelector((state) => selectStep(state, key));
  if (step?.status !== 'failed') return null;
  return (
    <div className="housekeeping__error" role="alert">
      <p className="form-error">{step.error}</p>
      <button type="button" className="button button--small" onClick={() => dispatch(stepDismissed({ key }))}>
        OK
      </button>
    </div>
  );
}
