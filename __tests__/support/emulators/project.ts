// The project of the suites on the Auth and Firestore emulators (the port contract's run and functions/'s), a
// demo- project: it needs no credentials and reaches no real service. One for both, so that one run of both can
// share one start of each emulator (npm run test:firebase:emulators): the Auth emulator answers the Firebase JS
// SDK, whose requests name an API key and no project, for the project it was started with.
export const EMULATOR_PROJECT_ID = process.env.QUPM_EMULATOR_PROJECT ?? 'demo-qupm';
