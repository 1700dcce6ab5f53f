// The push-token write budget (not a timing budget, so it is checked here as well as reported by
// npm run bench): 30 simulated days of one device on the real push sagas.
import { benchPushTokens, SIMULATED_DAYS, WRITE_BUDGET } from '../../bench/pushTokens';

describe('push-token bookkeeping over 30 simulated days', () => {
  it('stays within 35 backend writes and never touches the backend on a check that found nothing changed', async () => {
    const report = await benchPushTokens();
    expect(report.days).toBe(SIMULATED_DAYS);
    // The simulation really ran the checks: 48 periodic ones a day at least, and every hourly visibility change.
    expect(report.checks).toBeGreaterThan(SIMULATED_DAYS * 48);
    expect(report.visibilityChanges).toBe(SIMULATED_DAYS * 24);
    expect(report.writes).toBeLessThanOrEqual(WRITE_BUDGET);
    expect(report.unjustifiedOperations).toBe(0);
    expect(report.reads).toBe(0);
  });
});
