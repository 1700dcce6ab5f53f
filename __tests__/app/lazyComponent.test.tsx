/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// A lazily loaded part of a screen whose chunk fails to load takes the recovery of spec §4, as a route does:
// it reports the failure once (the recovery saga reloads once), and once recovery is
// exhausted the layout's error screen with "Try again" stands in for the screen.
import { Suspense } from 'react';
import type { ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { lazyComponent } from '@/app/lazyComponent';
import { chunkLoadFailed, chunkRecoveryExhausted } from '@/store/versionSlice';
import { recordActionTypes } from '../support/recordingStore';

const chunkError = () =>
  Object.assign(new Error('Loading chunk consultant-tools failed.'), { name: 'ChunkLoadError' });

/** `load` as a lazily loaded part (`loaded`: the part when its chunk was fetched ahead), inside a Suspense. */
function renderLazy(
  load: () => Promise<() => ReactElement>,
  loaded?: () => (() => ReactElement) | undefined,
) {
  const { store, seen } = recordActionTypes();
  const Part = lazyComponent(load, loaded);
  render(
    <Provider store={store}>
      <Suspense fallback={<p>Loading the part…</p>}>
        <Part />
      </Suspense>
    </Provider>,
  );
  return { store, seen };
}

describe('lazyComponent', () => {
  it('renders the part when its chunk loads', async () => {
    renderLazy(async () => () => <p>The consultant tools</p>);
    expect(await screen.findByText('The consultant tools')).toBeTruthy();
  });

  it('draws a part already fetched in the same render, without its fallback (React would reveal it 300 ms late)', () => {
    const load = jest.fn(() => new Promise<() => ReactElement>(() => undefined));
    renderLazy(load, () => () => <p>The home, fetched ahead</p>);
    expect(screen.getByText('The home, fetched ahead')).toBeTruthy();
    expect(screen.queryByText('Loading the part…')).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });

  it('loads a part not fetched yet as any other', async () => {
    renderLazy(
      async () => () => <p>Loaded now</p>,
      () => undefined,
    );
    expect(screen.getByText('Loading the part…')).toBeTruthy();
    expect(await screen.findByText('Loaded now')).toBeTruthy();
  });

  it('reports a chunk that fails to load once, then shows the error screen with Try again when recovery is exhausted', async () => {
    const { store, seen } = renderLazy(() => Promise.reject(chunkError()));
    await screen.findByText('Loading QuPM...');
    expect(seen.filter((type) => type === chunkLoadFailed.type)).toHaveLength(1);
    store.dispatch(chunkRecoveryExhausted());
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
