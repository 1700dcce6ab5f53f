import { createDeviceIdSource, isUuid } from '@/platform';
import type { DeviceIdDeps, KeyValueStore } from '@/platform';
import type * as PlatformModule from '@/platform';
import { createFakeStore, defineGlobal, restoreGlobals } from './fakes';

afterEach(restoreGlobals);

const STORED_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const NEW_ID = '9f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
const NOW = 1_700_000_000_000;

/** A random() that returns the given values in turn, then repeats the last. */
function sequence(...values: number[]): () => number {
  let index = 0;
  return () => values[Math.min(index++, values.length - 1)] ?? 0;
}

function deps(store: KeyValueStore | null, overrides: Partial<DeviceIdDeps> = {}): DeviceIdDeps {
  return { store, randomUUID: () => NEW_ID, now: () => NOW, random: () => 0.5, ...overrides };
}

describe('isUuid', () => {
  it.each([
    ['a version 4 UUID', STORED_ID],
    ['an upper-case UUID', STORED_ID.toUpperCase()],
    ['a version 1 UUID', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
    ['a version 7 UUID', '01890a5d-ac96-774b-bcce-b302099a8057'],
  ])('accepts %s', (_label, value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['the string null', 'null'],
    ['the string undefined', 'undefined'],
    ['whitespace', '   '],
    ['a UUID with surrounding spaces', ` ${STORED_ID} `],
    ['a UUID in braces', `{${STORED_ID}}`],
    ['a UUID without dashes', STORED_ID.replace(/-/g, '')],
    ['a UUID with a non-hex digit', 'g3241101-e2bb-4255-8caf-4136c566a962'],
    ['a fallback id', `${NOW}-abcdefghij`],
  ])('refuses %s', (_label, value) => {
    expect(isUuid(value)).toBe(false);
  });
});

describe('createDeviceIdSource', () => {
  it('returns the stored UUID as it is and writes nothing', () => {
    const store = createFakeStore({ device_id: STORED_ID });
    expect(createDeviceIdSource(deps(store))()).toBe(STORED_ID);
    expect(store.writes).toEqual([]);
  });

  it('keeps a stored upper-case UUID unchanged', () => {
    const upper = STORED_ID.toUpperCase();
    const store = createFakeStore({ device_id: upper });
    expect(createDeviceIdSource(deps(store))()).toBe(upper);
    expect(store.contents()).toEqual({ device_id: upper });
  });

  it('creates a UUID on first use and stores it under device_id', () => {
    const store = createFakeStore();
    expect(createDeviceIdSource(deps(store))()).toBe(NEW_ID);
    expect(store.contents()).toEqual({ device_id: NEW_ID });
  });

  it.each([
    ['not a UUID', 'device-123'],
    ['empty', ''],
    ['the string null', 'null'],
    ['the string undefined', 'undefined'],
    ['whitespace', '  \n'],
  ])('replaces a stored value that is %s with a new UUID', (_label, corrupt) => {
    const store = createFakeStore({ device_id: corrupt });
    expect(createDeviceIdSource(deps(store))()).toBe(NEW_ID);
    expect(store.contents()).toEqual({ device_id: NEW_ID });
  });

  it('works the id out once and returns the same id on every later call', () => {
    const store = createFakeStore();
    let calls = 0;
    const source = createDeviceIdSource(
      deps(store, { randomUUID: () => (calls++ === 0 ? NEW_ID : STORED_ID) }),
    );
    expect([source(), source(), source()]).toEqual([NEW_ID, NEW_ID, NEW_ID]);
    expect(store.reads).toEqual(['device_id']);
    expect(store.writes).toEqual([['device_id', NEW_ID]]);
  });

  it('falls back to the time plus ten base-36 characters when there is no store', () => {
    const id = createDeviceIdSource(deps(null, { random: sequence(0, 0.5, 0.999) }))();
    expect(id).toBe(`${NOW}-0izzzzzzzz`);
  });

  it('falls back when reading storage throws, without writing to it', () => {
    const store = createFakeStore({ device_id: STORED_ID }, ['get']);
    const id = createDeviceIdSource(deps(store))();
    expect(id).toMatch(new RegExp(`^${NOW}-[0-9a-z]{10}$`));
    expect(store.writes).toEqual([]);
  });

  it('falls back when writing the new UUID throws, rather than using an id that was not kept', () => {
    const store = createFakeStore({}, ['set']);
    const id = createDeviceIdSource(deps(store))();
    expect(id).toMatch(new RegExp(`^${NOW}-[0-9a-z]{10}$`));
    expect(store.contents()).toEqual({});
  });

  it('does not retry failing storage on later calls and keeps the same fallback id', () => {
    const store = createFakeStore({}, ['get']);
    let now = NOW;
    const source = createDeviceIdSource(deps(store, { now: () => now++, random: Math.random }));
    const first = source();
    expect([source(), source()]).toEqual([first, first]);
    expect(store.reads).toHaveLength(1);
  });

  it('builds a version 4 UUID from random() when randomUUID throws in an insecure context', () => {
    const store = createFakeStore();
    const randomUUID = () => {
      throw new TypeError('crypto.randomUUID is not a function');
    };
    const id = createDeviceIdSource(deps(store, { randomUUID, random: sequence(0.999) }))();
    // Every random digit is f; the version nibble is 4 and the variant nibble the largest allowed, b.
    expect(id).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(store.contents()).toEqual({ device_id: id });
  });

  it('builds a UUID from random() when randomUUID returns something that is not a UUID', () => {
    const store = createFakeStore();
    const id = createDeviceIdSource(deps(store, { randomUUID: () => 'not-a-uuid', random: sequence(0) }))();
    expect(id).toBe('00000000-0000-4000-8000-000000000000');
    expect(store.contents()).toEqual({ device_id: id });
  });

  it('gives random UUIDs the version 4 shape for any random() output', () => {
    const randomUUID = () => {
      throw new Error('insecure');
    };
    for (let i = 0; i < 50; i += 1) {
      const id = createDeviceIdSource(deps(createFakeStore(), { randomUUID, random: Math.random }))();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('keeps fallback characters in range when random() misbehaves', () => {
    expect(createDeviceIdSource(deps(null, { random: () => 1 }))()).toBe(`${NOW}-zzzzzzzzzz`);
    expect(createDeviceIdSource(deps(null, { random: () => Number.NaN }))()).toBe(`${NOW}-0000000000`);
    expect(createDeviceIdSource(deps(null, { random: () => -3 }))()).toBe(`${NOW}-0000000000`);
  });
});

describe('browserDeviceIdSource', () => {
  // The browser source is shared by the whole page, so each test loads a fresh copy of the module.
  function loadBrowserDeviceIdSource(): typeof PlatformModule.browserDeviceIdSource {
    let load: typeof PlatformModule.browserDeviceIdSource | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      load = (require('@/platform') as typeof PlatformModule).browserDeviceIdSource;
    });
    if (!load) throw new Error('module did not load');
    return load;
  }

  it("stores crypto.randomUUID's id in the window's localStorage", () => {
    const store = createFakeStore();
    defineGlobal('window', { value: { localStorage: store } });
    const id = loadBrowserDeviceIdSource()()();
    expect(isUuid(id)).toBe(true);
    expect(store.contents()).toEqual({ device_id: id });
  });

  it('hands every caller the same source, so a fallback id is the same everywhere in the page', () => {
    const browserDeviceIdSource = loadBrowserDeviceIdSource();
    expect(browserDeviceIdSource()).toBe(browserDeviceIdSource());
    expect(browserDeviceIdSource()()).toMatch(/^\d+-[0-9a-z]{10}$/);
  });
});
