// The words every screen uses for push state: each spec §8 result and each recorded failure
// has a sentence for people that is not the internal string itself.
import {
  CLOSED_GATE_MESSAGES,
  PERMISSION_SKIP_MESSAGES,
  PUSH_FAILURES,
  VALIDATION_MESSAGES,
} from '@/store/pushSlice';
import { UNBLOCK_STEPS, VALIDATION_WORDS, pushFailureWords, validationWords } from '@/ui/pushWords';

const SPEC_RESULTS = Object.values(VALIDATION_MESSAGES);

describe('validationWords', () => {
  it.each([
    ...SPEC_RESULTS,
    ...Object.values(CLOSED_GATE_MESSAGES),
    ...Object.values(PERMISSION_SKIP_MESSAGES),
  ])('says what “%s” means in other words', (message) => {
    const words = validationWords(message);
    expect(words).not.toBe(message);
    for (const raw of SPEC_RESULTS) expect(words).not.toContain(raw);
  });

  it('has a sentence for every message and no more', () => {
    expect(Object.keys(VALIDATION_WORDS).sort()).toEqual(
      [
        ...new Set([
          ...SPEC_RESULTS,
          ...Object.values(CLOSED_GATE_MESSAGES),
          ...Object.values(PERMISSION_SKIP_MESSAGES),
        ]),
      ].sort(),
    );
  });
});

describe('pushFailureWords', () => {
  it.each(
    Object.values(PUSH_FAILURES).filter(
      (f) => f !== PUSH_FAILURES.refusedInWindow && f !== PUSH_FAILURES.permissionPromptSkipped,
    ),
  )('puts “%s” in other words', (failure) => {
    expect(pushFailureWords(failure)).not.toContain(failure);
  });

  it('keeps the failures already written for people', () => {
    expect(pushFailureWords(PUSH_FAILURES.refusedInWindow)).toBe(PUSH_FAILURES.refusedInWindow);
  });

  it('never repeats a failure it does not know, nor nothing', () => {
    expect(pushFailureWords('DOMException: subscribe failed at line 3')).not.toMatch(/DOMException|line 3/);
    expect(pushFailureWords(null)).toMatch(/couldn’t be set up/);
  });
});

describe('UNBLOCK_STEPS', () => {
  it('says how to allow notifications in each browser family, in at most three short steps', () => {
    for (const { where, steps } of Object.values(UNBLOCK_STEPS)) {
      expect(where.length).toBeGreaterThan(0);
      expect(steps.length).toBeGreaterThanOrEqual(1);
      expect(steps.length).toBeLessThanOrEqual(3);
      for (const step of steps) expect(step.length).toBeLessThan(140);
    }
  });
});
