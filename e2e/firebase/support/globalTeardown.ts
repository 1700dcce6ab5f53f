// After the emulator suite: the emulators stopped and the build removed (nothing, when the run used emulators
// someone else started).
import { takeForTeardown } from './running';

export default async function globalTeardown(): Promise<void> {
  await takeForTeardown()?.stop();
}
