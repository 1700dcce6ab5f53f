// Port failures as plain data for the store: a status, a message for a person, and the finer reason if any.
import { BackendError } from '@/backend/ports';
import type { ErrorReason } from '@core/errors';

export interface PlainFailure {
  status: string;
  message: string;
  reason?: ErrorReason;
}

export function toFailure(error: unknown): PlainFailure {
  if (error instanceof BackendError) {
    return error.reason
      ? { status: error.status, message: error.message, reason: error.reason }
      : { status: error.status, message: error.message };
  }
  return { status: 'INTERNAL', message: 'Something went wrong. Please try again.' };
}
