// spec §5: "An override flag is forced on, so push is on in production": the production build defines the flag
// true whatever the host it is served from; the dev server leaves it off; QUPM_PUSH_OVERRIDE decides when set.
import webpack from 'webpack';
import config from '../../webpack.config';

function overrideOf(mode: 'production' | 'development', env: { QUPM_PUSH_OVERRIDE?: string } = {}): unknown {
  const saved = process.env.QUPM_PUSH_OVERRIDE;
  if (env.QUPM_PUSH_OVERRIDE === undefined) delete process.env.QUPM_PUSH_OVERRIDE;
  else process.env.QUPM_PUSH_OVERRIDE = env.QUPM_PUSH_OVERRIDE;
  try {
    const define = (config({}, { mode }).plugins ?? []).find(
      (plugin): plugin is webpack.DefinePlugin => plugin instanceof webpack.DefinePlugin,
    );
    return define?.definitions.__PUSH_HOST_OVERRIDE__;
  } finally {
    if (saved === undefined) delete process.env.QUPM_PUSH_OVERRIDE;
    else process.env.QUPM_PUSH_OVERRIDE = saved;
  }
}

describe('the push override flag (spec §5)', () => {
  it('is forced on in a production build', () => {
    expect(overrideOf('production')).toBe('true');
  });

  it('is off in the dev server, so localhost keeps push off there', () => {
    expect(overrideOf('development')).toBe('false');
  });

  it('follows QUPM_PUSH_OVERRIDE when it is set', () => {
    expect(overrideOf('production', { QUPM_PUSH_OVERRIDE: 'off' })).toBe('false');
    expect(overrideOf('development', { QUPM_PUSH_OVERRIDE: 'on' })).toBe('true');
  });
});
