// Port failures as plain data for the store (STYLE 5: no Error objects in state): a status, a message for a
// person, and the finer reason if any. Beside BackendError, which every adapter throws.
import { BackendError } from './ports';
import type { PlainFailure } from '@/store/status';
import { failureWords } from '@core/failureWords';

export function toFailure(error: unknown): PlainFailure {
  if (error instanceof BackendError) {
    return error.reason
      ? { status: error.status, message: error.message, reason: error.reason }
      : { status: error.status, message: error.message };
  }
  return { status: 'INTERNAL', message: failureWords('INTERNAL') };
}
