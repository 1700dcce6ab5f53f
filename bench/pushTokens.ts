// Push-token bookkeeping cost: 30 simulated days of one device running the real push sagas on a fake
// clock, with a visibility change every hour and a reload every morning, against token documents that count
// backend reads and writes. Budget: at most 35 writes in 30 days, and no backend read or write on a check that
// finds nothing changed (a naive version that stamps lastUsed on every 30-minute check does 1,440 writes).
import FakeTimers from '@sinonjs/fake-timers';
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import type { Task } from 'redux-saga';
import { eventChannel } from 'redux-saga';
import { call, fork } from 'redux-saga/effects';
import type { Backend, PushProviderPort } from '../src/backend/ports';
import type { PushEnv, VisibilityEvent } from '../src/platform/pushEnv';
import { pushDeviceSaga, pushSaga } from '../src/sagas/push/pushSaga';
import app, { rootMounted, started } from '../src/store/appSlice';
import push from '../src/store/pushSlice';
import type { ValidationResult } from '../src/store/pushSlice';
import user, { buildUserState, accountLoaded, signedIn } from '../src/store/userSlice';
import type { UserDoc } from '../core/model';
import { MemoryStorage } from '../drivers/memoryStorage';
import { MemoryTokenStore } from '../drivers/memoryTokenStore';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const SIMULATED_DAYS = 30;
export const WRITE_BUDGET = 35;

export interface PushTokenBenchReport {
  days: number;
  reloads: number;
  visibilityChanges: number;
  checks: number;
  rateLimitedChecks: number;
  /** Saves of a new or changed token, and touches of a stamp at least a day old. */
  justifiedOperations: number;
  /** Backend reads or writes on checks that found nothing changed: must be 0. */
  unjustifiedOperations: number;
  reads: number;
  writes: number;
  writeBudget: number;
  naiveWrites: number;
  markdown: string;
}

const UID = 'uidBench000000000001';
const TOKEN = 'bench-token-' + 'x'.repeat(140);
const authUser = { uid: UID, email: 'bench@qupm.invalid', displayName: 'Bench' };
const doc: UserDoc = {
  uid: UID,
  email: authUser.email,
  isOwner: false,
  notificationSettings: { enabled: true, delivery: { channels: ['push'] } },
  credits: 0,
  passCount: 0,
  effectiveConId: '',
};

/** A service worker that answers ENABLE_MESSAGING, for the page's messaging handshake. */
function installWorkerStandIn(): () => void {
  const previous = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  const worker = {
    postMessage(data: { type: string; eventId: string }, ports: MessagePort[]) {
      ports[0]?.postMessage({ type: 'MESSAGING_ENABLED', success: true, eventId: data.eventId });
      ports[0]?.close();
    },
  };
  Object.defineProperty(globalThis, 'navigator', {
    configurable: true,
    value: { serviceWorker: { ready: Promise.resolve({ active: worker }) } },
  });
  return () => {
    if (previous) Object.defineProperty(globalThis, 'navigator', previous);
    else delete (globalThis as { navigator?: unknown }).navigator;
  };
}

export async function benchPushTokens(): Promise<PushTokenBenchReport> {
  const restoreNavigator = installWorkerStandIn();
  const clock = FakeTimers.install({
    now: Date.UTC(2026, 0, 1, 7),
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  try {
    const storage = new MemoryStorage(); // local storage survives reloads
    const tokens = new MemoryTokenStore(() => Date.now());
    const provider: PushProviderPort = {
      permissionBlockedMessage: 'blocked',
      getPublicKey: async () => 'BPublicKey',
      getToken: async () => TOKEN,
      deleteToken: async () => true,
    };
    const backend = {
      kind: 'local',
      pushTokens: tokens.port(),
      pushProvider: provider,
    } as unknown as Backend;
    const visibility = new Set<(event: VisibilityEvent) => void>();
    const env: PushEnv = {
      support: { supported: true, missing: [] },
      environmentEnabled: true,
      storage,
      userAgent: 'bench',
      now: () => Date.now(),
      readPermission: () => 'granted',
      requestPermission: async () => 'granted',
      createPermissionChannel: () => eventChannel(() => () => undefined),
      messagingRegistration: async () => ({}) as ServiceWorkerRegistration,
      createVisibilityChannel: () =>
        eventChannel((emit) => {
          visibility.add(emit);
          return () => visibility.delete(emit);
        }),
    };

    let checks = 0;
    let rateLimited = 0;
    // Backend operations a check may justify: saving a token (none stored, or it changed) and touching a
    // lastUsed stamp that is at least a day old. Anything else on a check found nothing changed.
    const port = tokens.port();
    let justified = 0;
    backend.pushTokens = {
      ...port,
      addToken: async (uid, input) => {
        justified += 1;
        return port.addToken(uid, input);
      },
      touchToken: async (uid, id) => {
        const before = tokens.docs.get(id)?.lastUsed ?? 0;
        if (Date.now() - before >= DAY) justified += 1;
        return port.touchToken(uid, id);
      },
    };

    /** One page load: a fresh store and push saga, signed in from the stored session. */
    function load(): { task: Task } {
      const sagas = createSagaMiddleware({
        effectMiddlewares: [
          (next) =>
            (effect: { type?: string; payload?: { action?: { type: string; payload?: unknown } } }) => {
              const action = effect?.type === 'PUT' ? effect.payload?.action : undefined;
              if (action?.type === 'push/validationFinished') {
                checks += 1;
                if ((action.payload as ValidationResult).rateLimited) rateLimited += 1;
              }
              return next(effect);
            },
        ],
      });
      const store = configureStore({
        reducer: combineReducers({ app, user, push }),
        middleware: (defaults) =>
          defaults({ thunk: false, serializableCheck: false, immutableCheck: false }).concat(sagas),
      });
      // Push as the root saga starts it: the device's side at once, the token work once the backend has loaded.
      const task = sagas.run(function* page() {
        yield fork(pushDeviceSaga, () => env);
        const ready: Backend = yield call(async () => backend);
        yield call(pushSaga, ready, () => env);
      });
      store.dispatch(
        started({
          platform: 'web',
          installed: false,
          online: true,
          deviceId: '0b6c2d2e-1f7a-4b8e-9a51-3f0f6a0f9d11',
        }),
      );
      store.dispatch(signedIn({ authUser }));
      store.dispatch(accountLoaded(buildUserState(authUser, doc, { isAdmin: false })));
      store.dispatch(rootMounted());
      return { task };
    }

    let page = load();
    let reloads = 0;
    let visibilityChanges = 0;
    for (let day = 0; day < SIMULATED_DAYS; day += 1) {
      if (day > 0) {
        page.task.cancel(); // the reload ends the old page's sagas
        page = load();
        reloads += 1;
      }
      for (let hour = 0; hour < 24; hour += 1) {
        await clock.tickAsync(HOUR - 2 * MINUTE);
        visibility.forEach((emit) => emit({ visible: false }));
        await clock.tickAsync(2 * MINUTE);
        visibility.forEach((emit) => emit({ visible: true }));
        visibilityChanges += 1;
      }
    }
    await clock.tickAsync(MINUTE);
    page.task.cancel();

    const unjustified = tokens.reads + tokens.writes - justified;
    const naiveWrites = SIMULATED_DAYS * 48;
    const report = {
      days: SIMULATED_DAYS,
      reloads,
      visibilityChanges,
      checks,
      rateLimitedChecks: rateLimited,
      justifiedOperations: justified,
      unjustifiedOperations: unjustified,
      reads: tokens.reads,
      writes: tokens.writes,
      writeBudget: WRITE_BUDGET,
      naiveWrites,
    };
    const ok = (pass: boolean) => (pass ? 'within budget' : '**over budget**');
    const markdown = [
      '## Push-token bookkeeping (30 simulated days, one device)',
      '',
      `A visibility change every hour, a reload every day, the 30-minute check: ${checks} checks ` +
        `(${rateLimited} inside the 10 s cooldown).`,
      '',
      '| | count | budget |',
      '|---|---:|---|',
      `| backend writes | ${tokens.writes} | ≤ ${WRITE_BUDGET}: ${ok(tokens.writes <= WRITE_BUDGET)} (naive: ${naiveWrites}) |`,
      `| backend reads | ${tokens.reads} | |`,
      `| reads or writes on checks that found nothing changed | ${unjustified} | 0: ${ok(unjustified === 0)} |`,
      '',
    ].join('\n');
    return { ...report, markdown };
  } finally {
    clock.uninstall();
    restoreNavigator();
  }
}
