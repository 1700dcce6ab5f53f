import {
  CHANNEL_PARAM,
  OFFER_PARAM,
  SERVICE_PARAM,
  TOKEN_PARAM,
  bookServicePath,
  activatePath,
  channelPath,
  invitePath,
  resetPasswordPath,
  verifyEmailPath,
} from '@core/paths';

const ID = 'AbCdEfGhIj0123456789';
const ORIGIN = 'https://qupm.example';

describe('channelPath', () => {
  it('opens the channel on the home screen', () => {
    expect(channelPath(ID)).toBe(`/?channel=${ID}`);
  });

  it('is read back by the home screen as the same id, whatever the id holds', () => {
    for (const id of [ID, 'a b', 'x&channel=y', '../../evil', 'é/#?']) {
      const url = new URL(channelPath(id), ORIGIN);
      expect(url.origin).toBe(ORIGIN);
      expect(url.pathname).toBe('/');
      expect(url.searchParams.getAll(CHANNEL_PARAM)).toEqual([id]);
    }
  });
});

describe('invitePath and activatePath', () => {
  it('name the invitation routes', () => {
    expect(invitePath(ID)).toBe(`/invite/${ID}`);
    expect(activatePath(ID)).toBe(`/activate/${ID}`);
  });

  it('escape a slash, ? and # in the id: one path segment on this origin', () => {
    for (const build of [invitePath, activatePath]) {
      const url = new URL(build('../x?y#z'), ORIGIN);
      expect(url.origin).toBe(ORIGIN);
      expect(url.pathname.split('/')).toHaveLength(3);
      expect(url.search).toBe('');
      expect(url.hash).toBe('');
    }
  });
});

describe('verifyEmailPath and resetPasswordPath (issue #15)', () => {
  it('carry the token in the query of their screens, read back whatever it holds', () => {
    for (const [build, pathname] of [
      [verifyEmailPath, '/verify-email'],
      [resetPasswordPath, '/reset-password'],
    ] as const) {
      for (const token of ['abc_DEF-123', 'a&token=b', '../x?y#z', 'é']) {
        const url = new URL(build(token), ORIGIN);
        expect(url.origin).toBe(ORIGIN);
        expect(url.pathname).toBe(pathname);
        expect(url.searchParams.getAll(TOKEN_PARAM)).toEqual([token]);
      }
    }
  });
});

describe('bookServicePath', () => {
  it('opens a service’s booking on /services, with the offer to apply when there is one', () => {
    expect(bookServicePath('serv0000000000000001')).toBe('/services?service=serv0000000000000001');
    expect(bookServicePath('serv0000000000000001', 'off 1&x')).toBe(
      '/services?service=serv0000000000000001&offer=off+1%26x',
    );
    const query = new URL(bookServicePath('a b', 'c&d'), 'https://qupm.test').searchParams;
    expect([query.get(SERVICE_PARAM), query.get(OFFER_PARAM)]).toEqual(['a b', 'c&d']);
  });
});
