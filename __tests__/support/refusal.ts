// What a synchronous call refused with, as a person and a client read it: the status, the words and the reason
// (when there is one). Anything thrown that is not a QupmError is a bug, rethrown; no refusal at all fails the test.
import { QupmError } from '../../core/errors';

export function refusal(run: () => unknown): { status: string; reason?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof QupmError)
      return {
        status: error.status,
        message: error.message,
        ...(error.reason ? { reason: error.reason } : {}),
      };
    throw error;
  }
  throw new Error('expected a refusal');
}
