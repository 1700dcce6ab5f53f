import { planTokenSave } from '@core/pushTokens';

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
