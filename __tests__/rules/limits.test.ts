// firestore.rules cannot import core/: the sizes and patterns it repeats are read off the file here and compared
// with core/limits.ts, so a limit changed in one place and not the other fails npm test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DELIVERY_CHANNELS, DEVICE_ID_PATTERN, LIMITS, PLATFORMS, PUSH_TOKEN_PATTERN } from '@core/limits';

const rules = readFileSync(path.join(__dirname, '../../firestore.rules'), 'utf8');

/** The bounds of every `isText(<field>, min, max)` the rules write, by field. */
function textBounds(): Map<string, Array<[number, number]>> {
  const bounds = new Map<string, Array<[number, number]>>();
  const calls = /isText\(\s*data(?:\.get\('(\w+)'[^)]*\)|\.(\w+))\s*,\s*(\d+)\s*,\s*(\d+)\s*\)/g;
  for (const [, getField, dotField, min, max] of rules.matchAll(calls)) {
    const field = getField ?? dotField ?? '';
    bounds.set(field, [...(bounds.get(field) ?? []), [Number(min), Number(max)]]);
  }
  return bounds;
}

/** A rules string pattern (`'^[A-Za-z0-9_:.-]+$'`) as what it accepts, to compare with a core pattern. */
const sameLanguage = (rulesPattern: string, core: RegExp, samples: string[]): void => {
  const compiled = new RegExp(rulesPattern);
  for (const sample of samples) expect([sample, compiled.test(sample)]).toEqual([sample, core.test(sample)]);
};

describe('firestore.rules repeats core/limits.ts', () => {
  const bounds = textBounds();

  it('reads the bounds it checks', () => {
    expect([...bounds.keys()].sort()).toEqual(
      ['deviceId', 'displayName', 'nickname', 'senderName', 'text', 'token', 'userAgent'].sort(),
    );
  });

  it.each([
    ['text', 1, LIMITS.messageMax],
    ['nickname', 1, LIMITS.nicknameMax],
    ['displayName', 1, LIMITS.displayNameMax],
    ['token', LIMITS.pushTokenMin, LIMITS.pushTokenMax],
    ['deviceId', 1, LIMITS.deviceIdMax],
    ['userAgent', 0, LIMITS.userAgentMax],
  ])('%s: %d to %d characters', (field, min, max) => {
    expect(bounds.get(field)).toEqual([[min, max]]);
  });

  it('the delivery channels: the same names, at most deliveryChannelsMax', () => {
    expect(rules).toContain(`value.delivery.channels.size() <= ${LIMITS.deliveryChannelsMax}`);
    const listed = /value\.delivery\.channels\.hasOnly\(\[([^\]]*)\]\)/.exec(rules)?.[1] ?? '';
    expect(listed.split(',').map((s) => s.trim().replace(/'/g, ''))).toEqual([...DELIVERY_CHANNELS]);
  });

  it('the platforms', () => {
    const listed = /data\.platform in \[([^\]]*)\]/.exec(rules)?.[1] ?? '';
    expect(listed.split(',').map((s) => s.trim().replace(/'/g, ''))).toEqual([...PLATFORMS]);
  });

  it('the token and device id patterns accept what core accepts', () => {
    const token = /data\.token\.matches\('([^']+)'\)/.exec(rules)?.[1] ?? '';
    const device = /data\.deviceId\.matches\('([^']+)'\)/.exec(rules)?.[1] ?? '';
    sameLanguage(token, PUSH_TOKEN_PATTERN, ['abc:DEF_12-3.x', 'a b', 'a/b', 'a+b', 'é', '']);
    sameLanguage(device, DEVICE_ID_PATTERN, ['0000-abcd-EF', 'a_b', 'a.b', 'a b', '']);
  });
});
