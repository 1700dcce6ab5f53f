import { expectSaga } from 'redux-saga-test-plan';
import * as matchers from 'redux-saga-test-plan/matchers';
import { browserLocalStorage } from '@/platform';
import { rootReducer } from '@/app/rootReducer';
import type { RootState } from '@/app/rootReducer';
import { started } from '@/store/appSlice';
import { debugButtonShown, debugMenuOpened } from '@/store/debugSlice';
import { validationFinished, validationStarted } from '@/store/pushSlice';
import {
  healthCheckAnswered,
  healthCheckFailed,
  monitorStarted,
  workerRestartStarted,
} from '@/store/swHealthSlice';
import { buildUserState, accountLoaded, signedIn } from '@/store/userSlice';
import type { Dialogs } from '@/platform/browser';
import { now } from '@/platform/browser';
import { DEBUG_MENU_TEXT, debugMenuSaga, parseChoice } from '@/sagas/debugMenuSaga';
import { createFakeStore } from '../platform/fakes';
import { createVirtualTime, END_TEST, START, untilEnded } from '../support/virtualTime';

const ada = { uid: 'ada-uid', email: 'ada@example.com', displayName: 'Ada' };
const TOKEN = 'dGhpcy1pcy1hLXdlYi1wdXNoLXN1YnNjcmlwdGlvbi10b2tlbg';

function iosState(signedInAs: typeof ada | null) {
  let state = rootReducer(
    undefined,
    started({ platform: 'ios', installed: true, online: true, deviceId: 'dev-1' }),
  );
  state = rootReducer(state, monitorStarted({ at: START }));
  if (signedInAs) {
    state = rootReducer(state, signedIn({ authUser: signedInAs }));
    state = rootReducer(state, accountLoaded(buildUserState(signedInAs, null, { isAdmin: false })));
  }
  return state;
}

function dialogs(answer: string | null): Dialogs & { alerts: string[]; prompts: string[] } {
  const d = {
    alerts: [] as string[],
    prompts: [] as string[],
    prompt(text: string) {
      d.prompts.push(text);
      return answer;
    },
    alert(text: string) {
      d.alerts.push(text);
    },
  };
  return d;
}

/** Opens the menu, answers `answer`, and lets `reply` (the sagas the option drives) answer in turn. */
async function choose(answer: string | null, state: RootState, reply: Array<{ type: string }> = []) {
  const d = dialogs(answer);
  let saga = expectSaga(debugMenuSaga, d, false)
    .withReducer(rootReducer, state)
    .provide([
      [matchers.call.fn(now), START + 6 * 60_000],
      [matchers.call.fn(browserLocalStorage), createFakeStore({ fcm_token: TOKEN })],
    ])
    .dispatch(debugMenuOpened());
  for (const action of reply) saga = saga.dispatch(action);
  const result = await saga.run({ timeout: 50, silenceTimeout: true });
  return { d, result, state: result.storeState as RootState };
}

const putTypes = (result: { effects: { put?: Array<{ payload: { action: { type: string } } }> } }) =>
  result.effects.put?.map((e) => e.payload.action.type) ?? [];

describe('the iOS debug menu (spec §2)', () => {
  it('offers the 8 numbered options in order', async () => {
    const { d } = await choose('8', iosState(ada));
    expect(d.prompts).toEqual([DEBUG_MENU_TEXT]);
    expect(DEBUG_MENU_TEXT.split('\n').slice(1)).toEqual([
      '1. Environment diagnostics',
      '2. Service-worker health report',
      '3. Test SW communication',
      '4. FCM token diagnostic',
      '5. Token validation',
      '6. Reset SW cooldown',
      '7. Reset token validation',
      '8. Cancel',
    ]);
  });

  it('1: shows the environment', async () => {
    const { d } = await choose('1', iosState(ada));
    expect(d.alerts[0]).toMatch(/^Environment diagnostics\n/);
    expect(d.alerts[0]).toContain('Platform: ios');
    expect(d.alerts[0]).toContain('Device id: dev-1');
  });

  it('2: shows the service-worker health report', async () => {
    const state = rootReducer(iosState(ada), workerRestartStarted({ at: START + 2 * 60_000 }));
    const { d } = await choose('2', state);
    expect(d.alerts[0]).toContain('Healthy: yes (1 restarts in the last 5 minutes)');
    expect(d.alerts[0]).toContain('Assessment: concerning');
  });

  it('3: tests SW communication through a health check and tells how long the answer took', async () => {
    const { d, result } = await choose('3', iosState(ada), [
      healthCheckAnswered({ at: START, roundTripMs: 12 }),
    ]);
    expect(putTypes(result)).toContain('swHealth/healthCheckRequested');
    expect(d.alerts).toEqual(['The service worker answered in 12 ms.']);
  });

  it("3: tells 'SW communication timeout' when the worker does not answer", async () => {
    const { d } = await choose('3', iosState(ada), [
      healthCheckFailed({ at: START, error: 'SW communication timeout' }),
    ]);
    expect(d.alerts).toEqual(['SW communication failed: SW communication timeout']);
  });

  it('4: shows the token diagnostic with only a short prefix of the token', async () => {
    const { d } = await choose('4', iosState(ada));
    expect(d.alerts[0]).toContain(`Stored token: ${TOKEN.slice(0, 12)}… (${TOKEN.length} characters)`);
    expect(d.alerts[0]).not.toContain(TOKEN);
  });

  it('4: alerts that nobody is signed in', async () => {
    const { d } = await choose('4', iosState(null));
    // spec §8's alert, word for word.
    expect(d.alerts).toEqual(['No authenticated user found for FCM diagnostic']);
  });

  it('5: validates the token through the push saga and shows its result', async () => {
    const { d, result } = await choose('5', iosState(ada), [
      validationFinished({ success: true, message: 'Current token is valid', rateLimited: false, at: START }),
    ]);
    expect(putTypes(result)).toContain('push/validationRequested');
    expect(d.alerts).toEqual(['Token validation: Current token is valid']);
  });

  it('5: alerts that nobody is signed in', async () => {
    const { d, result } = await choose('5', iosState(null));
    // spec §8's alert, word for word.
    expect(d.alerts).toEqual(['No authenticated user found for FCM validation']);
    expect(putTypes(result)).not.toContain('push/validationRequested');
  });

  it('6: resets the SW restart cooldown', async () => {
    const { state } = await choose('6', rootReducer(iosState(ada), workerRestartStarted({ at: START })));
    expect(state.swHealth.cooldownFrom).toBeNull();
  });

  it('7: resets token validation, so the next check is not held by the cooldown', async () => {
    const { state } = await choose('7', rootReducer(iosState(ada), validationStarted({ at: START })));
    expect(state.push.lastValidatedAt).toBeNull();
  });

  it.each([
    ['8', '8'],
    ['Escape', null],
  ])('%s cancels without a word', async (_label, answer) => {
    const { d, result } = await choose(answer, iosState(ada));
    expect([d.alerts, putTypes(result)]).toEqual([[], []]);
  });

  it('asks for a number on anything else', async () => {
    const { d } = await choose('9', iosState(ada));
    expect(d.alerts).toEqual(['Type a number from 1 to 8.']);
  });

  it.each([
    ['3', 3],
    [' 5. ', 5],
    ['', 8],
    ['0', null],
    ['1.5', null],
    ['two', null],
  ])('reads %p as %p', (answer, choice) => {
    expect(parseChoice(answer)).toBe(choice);
  });
});

describe('the debug button', () => {
  /** The button shown, then `ms` of virtual time: whether it is dimmed then. */
  async function dimmedAfter(ms: number): Promise<boolean> {
    const time = createVirtualTime();
    const saga = expectSaga(untilEnded, debugMenuSaga, dialogs(null), false)
      .withReducer(rootReducer, iosState(ada))
      .provide([time.provider])
      .dispatch(debugButtonShown());
    const running = saga.run({ timeout: 10_000 });
    await time.advance(ms);
    saga.dispatch(END_TEST);
    return ((await running).storeState as RootState).debug.buttonDimmed;
  }

  // spec §2 and §9: "dims after 10 s", in the spec's number (not the constant the code names it with).
  it('is not dimmed 1 ms before 10 s', async () => {
    expect(await dimmedAfter(9_999)).toBe(false);
  });

  it('dims at 10 s after it appears', async () => {
    expect(await dimmedAfter(10_000)).toBe(true);
  });
});

describe('the debug popup flag (spec §9: off)', () => {
  it('opens no menu by itself when someone signs in on iOS', async () => {
    const d = dialogs('8');
    await expectSaga(debugMenuSaga, d)
      .withReducer(rootReducer, iosState(null))
      .dispatch(accountLoaded(buildUserState(ada, null, { isAdmin: false })))
      .run({ timeout: 50, silenceTimeout: true });
    expect(d.prompts).toEqual([]);
  });

  it('would open it, were the flag on', async () => {
    const d = dialogs('8');
    await expectSaga(debugMenuSaga, d, true)
      .withReducer(rootReducer, iosState(null))
      .dispatch(accountLoaded(buildUserState(ada, null, { isAdmin: false })))
      .run({ timeout: 50, silenceTimeout: true });
    expect(d.prompts).toEqual([DEBUG_MENU_TEXT]);
  });
});
