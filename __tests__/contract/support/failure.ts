// The BackendError a port call failed with, for every contract file: the test fails if the call succeeded, or if
// the error is not a BackendError with words for a person (no stack trace, no file name, no SDK code).
import { BackendError } from '@/backend/ports';

export async function failure(call: Promise<unknown>): Promise<BackendError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackendError);
  const backendError = error as BackendError;
  expect(backendError.message.length).toBeGreaterThan(0);
  expect(backendError.message).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|auth\//);
  return backendError;
}
