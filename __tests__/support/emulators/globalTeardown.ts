// Stops the emulators globalSetup.ts started (none when the run used emulators someone else started).
import { stopStartedEmulators } from './globalSetup';

export default stopStartedEmulators;
