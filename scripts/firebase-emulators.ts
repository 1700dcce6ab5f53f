// npm run firebase:emulators: QuPM on Firebase, on this machine's emulators, for a person to try it or to run the
// emulator suite against (drivers/firebaseEmulators.ts): the Firebase build made for them, served by Hosting with
// firebase.json's headers, Auth, the Firestore jar with firestore.rules, and functions/'s built lib/. Prints where
// to open it and the line that points `npm run test:firebase` at it; Ctrl-C stops everything.
import { EMULATORS_VARIABLE, addressesOf, startFirebaseApp } from '../drivers/firebaseEmulators';

async function main(): Promise<void> {
  console.log('Building QuPM for the emulators and starting them (a minute or two)…');
  const app = await startFirebaseApp();
  const { emulators } = app;
  console.log(`\nQuPM on Firebase's emulators: ${emulators.hostingUrl}`);
  console.log(
    `  Auth ${emulators.authUrl}, Firestore ${emulators.firestoreUrl}, Functions ${emulators.functionsUrl}`,
  );
  console.log(`  Cloud Storage (a stand-in, in memory) ${emulators.storageUrl}`);
  console.log(
    `  The links Auth would mail: ${emulators.authUrl}/emulator/v1/projects/${emulators.projectId}/oobCodes`,
  );
  console.log('\nTo run the emulator suite against them, in another terminal:');
  console.log(
    `  ${EMULATORS_VARIABLE}='${JSON.stringify(addressesOf(app))}' npx jest --config e2e/firebase/jest.config.ts`,
  );
  console.log('\nCtrl-C stops them.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void app.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
