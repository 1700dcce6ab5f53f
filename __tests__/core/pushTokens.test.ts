import { newTokenDoc, planTokenSave } from '@core/pushTokens';

const doc = (uid: string, id: string, token: string, deviceId: string) => ({ uid, id, token, deviceId });

describe('planTokenSave (one token document per device, a browser token under one account)', () => {
  it('keeps the document of the same token on the same device, and removes nothing else', () => {
    const mine = doc('ada', 'd1', 'T', 'phone');
    expect(planTokenSave('ada', { token: 'T', deviceId: 'phone' }, [mine])).toEqual({
      keep: mine,
      remove: [],
    });
  });

  it("replaces the device's document when the device has a new token", () => {
    const old = doc('ada', 'd1', 'OLD', 'phone');
    expect(planTokenSave('ada', { token: 'NEW', deviceId: 'phone' }, [old])).toEqual({
      keep: null,
      remove: [old],
    });
  });

  it('takes the token away from every other account that holds it, and from another device of this one', () => {
    const bob = doc('bob', 'd2', 'T', 'phone');
    const elsewhere = doc('ada', 'd3', 'T', 'laptop');
    expect(planTokenSave('ada', { token: 'T', deviceId: 'phone' }, [bob, elsewhere])).toEqual({
      keep: null,
      remove: [bob, elsewhere],
    });
  });

  it('keeps one when a bygone race left two, and heals the device down to it', () => {
    const b = doc('ada', 'b', 'T', 'phone');
    const a = doc('ada', 'a', 'T', 'phone');
    const stale = doc('ada', 'c', 'OLD', 'phone');
    expect(planTokenSave('ada', { token: 'T', deviceId: 'phone' }, [b, stale, a])).toEqual({
      keep: a,
      remove: [b, stale],
    });
  });

  it('counts a document found by both device and token once', () => {
    const old = doc('ada', 'd1', 'T', 'laptop');
    expect(planTokenSave('ada', { token: 'T', deviceId: 'phone' }, [old, { ...old }]).remove).toHaveLength(1);
  });
});

describe('newTokenDoc (the document a save makes when it keeps none)', () => {
  it('is active, created and last used at the backend’s time, with the device’s fields', () => {
    const input = { token: 'tok', deviceId: 'device-1', platform: 'web' as const, userAgent: 'Firefox' };
    expect(newTokenDoc('Token000000000000001', input, 42)).toEqual({
      id: 'Token000000000000001',
      token: 'tok',
      deviceId: 'device-1',
      platform: 'web',
      userAgent: 'Firefox',
      status: 'active',
      createdAt: 42,
      lastUsed: 42,
    });
  });

  it('takes nothing else the device sent', () => {
    const sent = {
      token: 't',
      deviceId: 'd',
      platform: 'ios' as const,
      userAgent: '',
      status: 'revoked',
      uid: 'x',
    };
    expect(Object.keys(newTokenDoc('id', sent, 1)).sort()).toEqual(
      ['createdAt', 'deviceId', 'id', 'lastUsed', 'platform', 'status', 'token', 'userAgent'].sort(),
    );
  });
});
