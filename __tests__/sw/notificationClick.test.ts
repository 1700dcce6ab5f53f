import { handleNotificationClick } from '@/sw/notificationClick';
import { createScope, fakeWindow, ORIGIN } from './swScope';
import type { FakeScope } from './swScope';

async function clickOn(scope: FakeScope, data: unknown) {
  let closed = false;
  const outcome = await handleNotificationClick(scope, {
    tag: 'm-1',
    data,
    close: () => {
      closed = true;
    },
  });
  return { outcome, closed };
}

describe('handleNotificationClick', () => {
  it("opens a window at the message's path when none is open, and closes the notification", async () => {
    const scope = createScope();
    await expect(clickOn(scope, { path: '/?channel=c1' })).resolves.toEqual({
      outcome: 'opened',
      closed: true,
    });
    expect(scope.opened).toEqual([`${ORIGIN}/?channel=c1`]);
  });

  it('focuses the open window already at that path without navigating it', async () => {
    const other = fakeWindow({ url: `${ORIGIN}/services` });
    const there = fakeWindow({ url: `${ORIGIN}/settings` });
    const scope = createScope({ windows: [other, there] });
    await expect(clickOn(scope, { path: '/settings' })).resolves.toMatchObject({ outcome: 'focused' });
    expect([there.focusCalls, there.navigations, other.focusCalls]).toEqual([1, [], 0]);
    expect(scope.opened).toEqual([]);
  });

  it('focuses an open window and takes it to the path', async () => {
    const win = fakeWindow({ url: `${ORIGIN}/services` });
    const scope = createScope({ windows: [win] });
    await clickOn(scope, { path: '/?channel=c1' });
    expect([win.focusCalls, win.navigations]).toEqual([1, [`${ORIGIN}/?channel=c1`]]);
  });

  it.each([
    ['a path of another origin', { path: 'https://evil.example/' }],
    ['a protocol-relative path', { path: '//evil.example/x' }],
    ['a javascript: url', { path: 'javascript:alert(1)' }],
    ['no data', null],
    ['data of another shape', 'surprise'],
  ])('opens home for %s', async (_label, data) => {
    const scope = createScope();
    await clickOn(scope, data);
    expect(scope.opened).toEqual([`${ORIGIN}/`]);
  });
});
