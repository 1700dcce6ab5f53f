import { effectiveConId, effectiveConIdAfterJoining, publicName } from '@core/users';

describe('effectiveConId', () => {
  it("is a consultant's own uid", () => {
    expect(effectiveConId({ uid: 'c', isOwner: true }, [{ ownerId: 'other', joinedAt: 1 }])).toBe('c');
  });

  it('is the consultant of the channel a user joined (the first, when several)', () => {
    expect(
      effectiveConId({ uid: 'u', isOwner: false }, [
        { ownerId: 'second', joinedAt: 20 },
        { ownerId: 'first', joinedAt: 10 },
      ]),
    ).toBe('first');
  });

  it("is '' for a user in no channel (spec §9 default)", () => {
    expect(effectiveConId({ uid: 'u', isOwner: false }, [])).toBe('');
  });
});

describe('effectiveConIdAfterJoining', () => {
  const user = { uid: 'u', isOwner: false, effectiveConId: '' };

  it('is the consultant of the channel joined, when there was none', () => {
    expect(effectiveConIdAfterJoining(user, 'dana', 5)).toBe('dana');
  });

  it('keeps an earlier consultant', () => {
    expect(effectiveConIdAfterJoining({ ...user, effectiveConId: 'lee' }, 'dana', 5)).toBe('lee');
  });

  it('is a consultant’s own uid', () => {
    expect(effectiveConIdAfterJoining({ ...user, isOwner: true }, 'dana', 5)).toBe('u');
  });
});

describe('publicName', () => {
  it('prefers the nickname, then the displayName, then the email’s local part', () => {
    expect(publicName({ nickname: 'Mo', displayName: 'Morgan Reyes', email: 'm@x.co' })).toBe('Mo');
    expect(publicName({ nickname: '  ', displayName: 'Morgan Reyes', email: 'm@x.co' })).toBe('Morgan Reyes');
    expect(publicName({ nickname: null, displayName: null, email: 'morgan@x.co' })).toBe('morgan');
  });
});
