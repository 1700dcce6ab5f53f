import reducer, {
  assessHealth,
  controllerChanged,
  healthCheckFailed,
  initialState,
  monitorStarted,
  restartCooldownRemaining,
  restartCooldownReset,
  selectHealthReport,
  workerRestartStarted,
} from '@/store/swHealthSlice';
import type { SwHealthState } from '@/store/swHealthSlice';
import { serviceWorkerRegistrationFailed } from '@/store/appSlice';
import { SW_RESTART_COOLDOWN_MS } from '@/timings';

const MIN = 60_000;
const T0 = 1_700_000_000_000;

/** A monitor started at T0 that saw `restarts` (ms after T0), `errors` and `changes`. */
function health({ restarts = [] as number[], errors = 0, changes = 0 } = {}): SwHealthState {
  let state = reducer(initialState, monitorStarted({ at: T0 }));
  for (const at of restarts) state = reducer(state, workerRestartStarted({ at: T0 + at }));
  for (let i = 0; i < errors; i += 1)
    state = reducer(state, healthCheckFailed({ at: T0, error: 'SW communication timeout' }));
  for (let i = 0; i < changes; i += 1) state = reducer(state, controllerChanged());
  return state;
}

describe('assessHealth: isHealthy (spec §4: more than 3 restarts within 5 minutes)', () => {
  it('is healthy with 3 restarts within 5 minutes', () => {
    expect(assessHealth(health({ restarts: [MIN, 2 * MIN, 3 * MIN] }), T0 + 4 * MIN).isHealthy).toBe(true);
  });

  it('is not healthy with 4 restarts within 5 minutes', () => {
    const report = assessHealth(health({ restarts: [MIN, 2 * MIN, 3 * MIN, 4 * MIN] }), T0 + 4 * MIN);
    expect([report.isHealthy, report.restartsInWindow]).toEqual([false, 4]);
  });

  it('is healthy again once the oldest of 4 restarts is 5 minutes old', () => {
    const state = health({ restarts: [MIN, 2 * MIN, 3 * MIN, 4 * MIN] });
    expect(assessHealth(state, T0 + 6 * MIN - 1).isHealthy).toBe(false);
    expect(assessHealth(state, T0 + 6 * MIN).isHealthy).toBe(true);
  });
});

describe('assessHealth: the assessment (spec §4)', () => {
  it('waits for 5 minutes of uptime before assessing', () => {
    const state = health({ errors: 9 });
    expect(assessHealth(state, T0 + 5 * MIN - 1).assessment).toBe('pending');
    expect(assessHealth(state, T0 + 5 * MIN).assessment).toBe('unhealthy');
  });

  it('is healthy with nothing counted', () => {
    expect(assessHealth(health(), T0 + 5 * MIN).assessment).toBe('healthy');
  });

  it('is healthy with 5 errors and unhealthy with 6', () => {
    expect(assessHealth(health({ errors: 5 }), T0 + 10 * MIN).assessment).toBe('healthy');
    expect(assessHealth(health({ errors: 6 }), T0 + 10 * MIN).assessment).toBe('unhealthy');
  });

  it('is not unhealthy at exactly 0.5 restarts a minute, and unhealthy above it', () => {
    // 5 restarts in 10 minutes = 0.5 a minute (still above 0.1: concerning); 6 = 0.6.
    const five = assessHealth(health({ restarts: [0, 1, 2, 3, 4] }), T0 + 10 * MIN);
    const six = assessHealth(health({ restarts: [0, 1, 2, 3, 4, 5] }), T0 + 10 * MIN);
    expect([five.restartsPerMinute, five.assessment]).toEqual([0.5, 'concerning']);
    expect([six.restartsPerMinute, six.assessment]).toEqual([0.6, 'unhealthy']);
  });

  it('is healthy at exactly 0.1 restarts a minute, and concerning above it', () => {
    const atRate = assessHealth(health({ restarts: [0, 1] }), T0 + 20 * MIN);
    const above = assessHealth(health({ restarts: [0, 1, 2] }), T0 + 20 * MIN);
    expect([atRate.restartsPerMinute, atRate.assessment]).toEqual([0.1, 'healthy']);
    expect([above.restartsPerMinute, above.assessment]).toEqual([0.15, 'concerning']);
  });

  it('is healthy with 10 controller changes and concerning with 11', () => {
    expect(assessHealth(health({ changes: 10 }), T0 + 5 * MIN).assessment).toBe('healthy');
    expect(assessHealth(health({ changes: 11 }), T0 + 5 * MIN).assessment).toBe('concerning');
  });

  it('names unhealthy over concerning when both apply', () => {
    expect(assessHealth(health({ errors: 6, changes: 11 }), T0 + 5 * MIN).assessment).toBe('unhealthy');
  });

  it('is what a screen shows as of the latest check, without reading the clock', () => {
    const state = reducer(health({ errors: 6 }), healthCheckFailed({ at: T0 + 7 * MIN, error: 'x' }));
    expect(selectHealthReport({ swHealth: state })).toMatchObject({
      assessment: 'unhealthy',
      uptimeMs: 7 * MIN,
    });
  });
});

describe('the restart cooldown (spec §9: 30 s)', () => {
  it('holds back a restart for 30 s after the last one', () => {
    const state = health({ restarts: [0] });
    expect(restartCooldownRemaining(state, T0 + 30_000 - 1, SW_RESTART_COOLDOWN_MS)).toBe(1);
    expect(restartCooldownRemaining(state, T0 + 30_000, SW_RESTART_COOLDOWN_MS)).toBe(0);
  });

  it('is gone after a reset', () => {
    const state = reducer(health({ restarts: [0] }), restartCooldownReset());
    expect(restartCooldownRemaining(state, T0 + 1, SW_RESTART_COOLDOWN_MS)).toBe(0);
  });
});

it('counts a failed registration of the worker as an error', () => {
  const state = reducer(initialState, serviceWorkerRegistrationFailed({ message: 'The script is a 404' }));
  expect([state.errors, state.lastError]).toEqual([1, 'The script is a 404']);
});
