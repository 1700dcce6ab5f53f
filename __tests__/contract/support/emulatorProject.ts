/** The contract's project on the emulators: a demo- project needs no credentials and reaches no real service. */
export const EMULATOR_PROJECT_ID = 'demo-qupm-contract';
