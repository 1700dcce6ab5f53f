// Shapes every slice shares (STYLE 2, 5): the status of a list a screen loads, as one finite union, and a failed
// request as plain data (never an Error object), as src/backend/errors.ts toFailure makes it.
import type { ErrorReason } from '@core/errors';

export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

export interface PlainFailure {
  status: string;
  message: string;
  reason?: ErrorReason;
}
