// The deploy-time wiring: the App Check switch, the region, the notification origin, the FCM sender and the
// script that grants the admin claim.
import { CALLABLE_OPTIONS, PRUNE_SCHEDULE } from '../src/functions';
import { createFcmSender } from '../src/fcm';
import {
  APP_ORIGIN,
  ENFORCE_APP_CHECK,
  FUNCTIONS_REGION,
  configurationProblems,
  resolveAppOrigin,
} from '../src/params';
import { parseArgs, setAdminClaim } from '../scripts/setAdmin';
import { functionsTest } from './support/functionsTest';
import { seededBackend } from './support/world';

afterAll(() => functionsTest.cleanup());

describe('the App Check switch', () => {
  it('is one parameter shared by every callable, off unless QUPM_ENFORCE_APP_CHECK says otherwise', () => {
    expect(CALLABLE_OPTIONS.enforceAppCheck).toBe(ENFORCE_APP_CHECK);
    expect(ENFORCE_APP_CHECK.name).toBe('QUPM_ENFORCE_APP_CHECK');
    expect(ENFORCE_APP_CHECK.value()).toBe(false);
  });

  it('is read from the environment the deployed function runs with', () => {
    process.env.QUPM_ENFORCE_APP_CHECK = 'true';
    try {
      expect(ENFORCE_APP_CHECK.value()).toBe(true);
    } finally {
      delete process.env.QUPM_ENFORCE_APP_CHECK;
    }
  });
});

describe('deployment', () => {
  it('deploys every function to the one configured region', () => {
    const { fns } = seededBackend();
    for (const [name, fn] of Object.entries(fns)) {
      const region = (fn as { __endpoint?: { region?: unknown } }).__endpoint?.region;
      expect({ name, region: JSON.stringify(region) }).toEqual({
        name,
        region: expect.stringContaining(FUNCTIONS_REGION.name),
      });
    }
  });

  it('runs the prune daily', () => {
    expect(PRUNE_SCHEDULE).toMatch(/^every day /);
  });
});

describe('resolveAppOrigin', () => {
  it('uses the configured origin, without any path', () => {
    expect(resolveAppOrigin('https://qupm.example.com/app/', 'p')).toBe('https://qupm.example.com');
  });

  it("falls back to the project's default Hosting site", () => {
    expect(resolveAppOrigin(' ', 'qupm-prod')).toBe('https://qupm-prod.web.app');
  });

  it('says what is missing when it knows neither', () => {
    expect(() => resolveAppOrigin('', undefined)).toThrow(APP_ORIGIN.name);
  });

  it.each(['http://qupm.example.com', 'http://localhost:5000', 'qupm.example.com'])(
    'refuses %s: FCM drops a notification link that is not https',
    (origin) => {
      expect(() => resolveAppOrigin(origin, 'p')).toThrow(APP_ORIGIN.name);
    },
  );
});

describe('the configuration check at deploy (functions/scripts/verifyBuild.ts, issue #14 part 13)', () => {
  it('passes the default (the https Hosting site) and an https origin', () => {
    expect(configurationProblems([], {})).toEqual([]);
    expect(configurationProblems(['QUPM_APP_ORIGIN=https://qupm.example.com'], {})).toEqual([]);
    expect(configurationProblems(['# the default site\nQUPM_APP_ORIGIN=""'], {})).toEqual([]);
  });

  it.each([
    ['in functions/.env', ['QUPM_APP_ORIGIN=http://qupm.example.com'], {}],
    [
      'in .env.<project>, which wins',
      ['QUPM_APP_ORIGIN=https://ok.example.com', "QUPM_APP_ORIGIN='http://localhost:5000'"],
      {},
    ],
    ['in the environment', [], { QUPM_APP_ORIGIN: 'http://qupm.example.com' }],
    ['that is no URL', ['export QUPM_APP_ORIGIN=qupm dot com'], {}],
  ])('fails on an origin FCM would drop links of, %s', (_label, files, env) => {
    const problems = configurationProblems(files, env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(APP_ORIGIN.name);
  });

  it('asks for an https origin when firebase deploy prompts for it', () => {
    const { input } = (
      APP_ORIGIN as unknown as { options: { input?: { text?: { validationRegex?: string } } } }
    ).options;
    const pattern = new RegExp(input?.text?.validationRegex ?? '(?!)');
    expect(['', 'https://qupm.example.com', 'https://qupm.example.com/'].map((v) => pattern.test(v))).toEqual(
      [true, true, true],
    );
    expect(['http://qupm.example.com', 'qupm.example.com'].map((v) => pattern.test(v))).toEqual([
      false,
      false,
    ]);
  });
});

describe('createFcmSender', () => {
  it('sends in batches of 500 and reports each outcome in order', async () => {
    const sendEach = jest.fn(async (messages: unknown[]) => ({
      successCount: 0,
      failureCount: 0,
      responses: messages.map((_m, i) =>
        i === 0
          ? { success: false, error: { code: 'messaging/registration-token-not-registered' } }
          : { success: true, messageId: `m${i}` },
      ),
    }));
    const message = {
      token: 't',
      notification: { title: 'A', body: 'b' },
      data: {},
      webpush: { headers: {}, fcmOptions: { link: 'https://x.test/' } },
    };
    const sender = createFcmSender({ sendEach } as never);
    const results = await sender.send(Array.from({ length: 501 }, () => message));
    expect(sendEach.mock.calls.map(([batch]) => batch.length)).toEqual([500, 1]);
    expect(results).toHaveLength(501);
    expect(results[0]).toEqual({ success: false, errorCode: 'messaging/registration-token-not-registered' });
    expect(results[1]).toEqual({ success: true });
    expect(results[500]).toEqual({
      success: false,
      errorCode: 'messaging/registration-token-not-registered',
    });
  });
});

describe('set-admin', () => {
  const auth = (customClaims?: Record<string, unknown>) => ({
    getUserByEmail: jest.fn(async (email: string) => ({ uid: 'u1', email, customClaims })),
    setCustomUserClaims: jest.fn(async () => undefined),
  });

  it('grants isAdmin and keeps the claims the account had', async () => {
    const fake = auth({ tier: 'gold' });
    await setAdminClaim(fake as never, 'ann@example.com', true);
    expect(fake.setCustomUserClaims).toHaveBeenCalledWith('u1', { tier: 'gold', isAdmin: true });
  });

  it('removes isAdmin with --remove', async () => {
    const fake = auth({ isAdmin: true, tier: 'gold' });
    await setAdminClaim(fake as never, 'ann@example.com', parseArgs(['ann@example.com', '--remove']).isAdmin);
    expect(fake.setCustomUserClaims).toHaveBeenCalledWith('u1', { tier: 'gold' });
  });

  it.each([[[]], [['not-an-email']], [['a@b.c', 'd@e.f']], [['a@b.c', '--force']]])(
    'explains its usage for %j',
    (argv) => {
      expect(() => parseArgs(argv)).toThrow(/Usage: npm --prefix functions run set-admin/);
    },
  );
});
