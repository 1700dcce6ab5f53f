// The emulator suites run together (npm run test:firebase:emulators: Jest projects, each with this globalSetup and
// the shared globalTeardown) start each emulator once, and the teardown stops every emulator the run started,
// whichever suite's setup started it. The emulator drivers (child processes) are the edge mocked here; starting
// them for real is what the emulator suites themselves do.
import { startAuthEmulator } from '../../../drivers/authEmulator';
import { startFirestoreEmulator } from '../../../drivers/firestoreEmulator';
import { startEmulatorsFor, stopStartedEmulators } from './globalSetup';

jest.mock('../../../drivers/authEmulator', () => ({ startAuthEmulator: jest.fn() }));
jest.mock('../../../drivers/firestoreEmulator', () => ({ startFirestoreEmulator: jest.fn() }));

const startAuth = jest.mocked(startAuthEmulator);
const startFirestore = jest.mocked(startFirestoreEmulator);
const VARIABLES = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'] as const;

function fakeEmulator(hostPort: string) {
  const [host = '', port = ''] = hostPort.split(':');
  return {
    host,
    port: Number(port),
    hostPort,
    projectId: 'demo-qupm',
    loadRules: jest.fn(),
    clear: jest.fn(),
    stop: jest.fn(() => Promise.resolve()),
  };
}

let firestore: ReturnType<typeof fakeEmulator>;
let auth: ReturnType<typeof fakeEmulator>;

beforeEach(() => {
  for (const name of VARIABLES) delete process.env[name];
  firestore = fakeEmulator('127.0.0.1:9101');
  auth = fakeEmulator('127.0.0.1:9102');
  startFirestore.mockResolvedValue(firestore);
  startAuth.mockResolvedValue(auth);
});

afterEach(async () => {
  await stopStartedEmulators();
  for (const name of VARIABLES) delete process.env[name];
});

describe('the emulator suites run together', () => {
  it('start each emulator once, the first suite for both, and the teardown stops both', async () => {
    await startEmulatorsFor({ firestore: true }); // the rules' suite: Firestore only
    await startEmulatorsFor({ firestore: true, auth: { projectId: 'demo-qupm' } }); // the contract's
    await startEmulatorsFor({ firestore: true, auth: { projectId: 'demo-qupm' } }); // functions/'

    expect(startFirestore).toHaveBeenCalledTimes(1);
    expect(startAuth).toHaveBeenCalledTimes(1);
    expect(startAuth).toHaveBeenCalledWith({ projectId: 'demo-qupm' });
    expect(process.env.FIRESTORE_EMULATOR_HOST).toBe('127.0.0.1:9101');
    expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toBe('127.0.0.1:9102');

    await stopStartedEmulators();
    expect(firestore.stop).toHaveBeenCalledTimes(1);
    expect(auth.stop).toHaveBeenCalledTimes(1);
  });

  it('use the emulators the variables name and stop none of them', async () => {
    process.env.FIRESTORE_EMULATOR_HOST = '127.0.0.1:9110';
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9111';

    await startEmulatorsFor({ firestore: true, auth: { projectId: 'demo-qupm' } });
    await stopStartedEmulators();

    expect(startFirestore).not.toHaveBeenCalled();
    expect(startAuth).not.toHaveBeenCalled();
    expect(process.env.FIRESTORE_EMULATOR_HOST).toBe('127.0.0.1:9110');
  });

  it('stop what started when another emulator fails to start, and say why', async () => {
    startAuth.mockRejectedValue(new Error('The Auth emulator (firebase-tools) did not answer in 120 s'));

    await expect(startEmulatorsFor({ firestore: true, auth: { projectId: 'demo-qupm' } })).rejects.toThrow(
      'did not answer in 120 s',
    );
    expect(firestore.stop).toHaveBeenCalledTimes(1);
  });
});
