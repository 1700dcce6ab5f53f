// The folder rules, read off the source tree so they stay true: imports flow one way (STYLE 1),
// src/sagas holds sagas only and nothing below it reaches up into it, no screen reaches past the store into the
// backend, one module owns the page's service worker, and a slice reacts to another's event through its imported
// creator, never a spelled-out type string (STYLE 3).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, code, read, sourceFiles } from './sourceTree';

/** The modules a file imports (static imports and re-exports, `import()` and `jest.mock`-free code alike). */
function importSpecifiers(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*(?:\/\*[^*]*\*\/\s*)?['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns)
    for (const match of source.matchAll(pattern)) specifiers.push(match[1] ?? '');
  return specifiers;
}

/** Where an import points, repo-relative without extension (`src/sagas/supervise`), or the package name. */
function resolveImport(fromFile: string, specifier: string): string {
  if (specifier.startsWith('@/')) return `src/${specifier.slice(2)}`;
  if (specifier.startsWith('@core/')) return `core/${specifier.slice(6)}`;
  if (specifier.startsWith('.'))
    return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return specifier;
}

const isUnder = (target: string, folder: string): boolean =>
  target === folder || target.startsWith(`${folder}/`);

/** The folders every feature may use, below the features (docs/ARCHITECTURE.md). */
const SHARED = ['src/store', 'src/sagas', 'src/platform', 'src/ui', 'src/protocol', 'src/backend'];

/** The features: each folder of src/features. */
const FEATURES = readdirSync(path.join(ROOT, 'src/features')).sort();

/** `file: specifier` for every import of a file among `files` that lands under `folder`. */
function importsInto(files: string[], folder: string): string[] {
  return files.flatMap((file) =>
    importSpecifiers(read(file))
      .filter((specifier) => isUnder(resolveImport(file, specifier), folder))
      .map((specifier) => `${file}: ${specifier}`),
  );
}

describe('the import rules', () => {
  it('reads every kind of import it must police', () => {
    const source = [
      "import { a } from '@/sagas/x';",
      "import type { B } from '../sagas/y';",
      "export { c } from './z';",
      "import './side-effect';",
      'const lazy = () => import(/* webpackChunkName: "c" */ \'@/backend/local\');',
      'import {\n  d,\n  e,\n} from "@core/model";',
    ].join('\n');
    expect(importSpecifiers(source)).toEqual([
      '@/sagas/x',
      '../sagas/y',
      './z',
      '@core/model',
      './side-effect',
      '@/backend/local',
    ]);
    expect(resolveImport('src/store/a.ts', '../sagas/y')).toBe('src/sagas/y');
    expect(resolveImport('src/sw/index.ts', '../timings')).toBe('src/timings');
  });

  it.each(['src/store', 'src/sw', 'src/ui', 'src/platform'])(
    'nothing in %s imports from src/sagas',
    (folder) => {
      expect(importsInto(sourceFiles(folder), 'src/sagas')).toEqual([]);
    },
  );

  it.each(['src', 'server', 'functions'])(
    'core/, shared by every side, imports nothing from %s',
    (folder) => {
      expect(importsInto(sourceFiles('core'), folder)).toEqual([]);
    },
  );

  it.each(['__tests__', 'e2e'])(
    'the bench imports no test support from %s (drivers/ is shared)',
    (folder) => {
      expect(importsInto(sourceFiles('bench'), folder)).toEqual([]);
    },
  );

  // Imports flow one way: shared → features → app (bulletproof-react's rule). What two features share moves down
  // into a shared folder; the composition root (src/app) puts the features together and decides what loads lazily.
  it.each(SHARED)('%s, shared, imports no feature', (folder) => {
    expect(importsInto(sourceFiles(folder), 'src/features')).toEqual([]);
  });

  it.each(SHARED)('%s, shared, imports nothing of the composition root (src/app)', (folder) => {
    expect(importsInto(sourceFiles(folder), 'src/app')).toEqual([]);
  });

  it.each(FEATURES)('the %s feature imports no other feature, nor src/app', (feature) => {
    const own = `src/features/${feature}`;
    const others = FEATURES.filter((other) => other !== feature).map((other) => `src/features/${other}`);
    const files = sourceFiles(own);
    expect(files.length).toBeGreaterThan(0);
    expect([...others, 'src/app'].flatMap((folder) => importsInto(files, folder))).toEqual([]);
  });

  it('catches a shared module that imports a feature, and a feature that imports another', () => {
    const imports = (file: string, source: string, folder: string) =>
      importSpecifiers(source).filter((specifier) => isUnder(resolveImport(file, specifier), folder));
    expect(
      imports('src/store/x.ts', "import { a } from '@/features/conversation/y';", 'src/features'),
    ).toEqual(['@/features/conversation/y']);
    expect(
      imports(
        'src/features/channels/List.tsx',
        "import type { B } from '../consultantTools/z';",
        'src/features/consultantTools',
      ),
    ).toEqual(['../consultantTools/z']);
    expect(FEATURES).toEqual(
      expect.arrayContaining(['channels', 'consultantTools', 'conversation', 'invitations']),
    );
  });

  it('no screen (a .tsx under src/features) imports src/backend', () => {
    const screens = sourceFiles('src/features').filter((file) => file.endsWith('.tsx'));
    expect(screens.length).toBeGreaterThan(10);
    expect(importsInto(screens, 'src/backend')).toEqual([]);
  });

  it('only the worker owner (src/platform/serviceWorker.ts) talks to navigator.serviceWorker on the page', () => {
    const owner = 'src/platform/serviceWorker.ts';
    const page = sourceFiles('src').filter((file) => !isUnder(file, 'src/sw') && file !== owner);
    const touches = page.filter((file) =>
      /navigator\??\.serviceWorker|['"]serviceWorker['"]\s+in\s+navigator|['"]workbox-window['"]/.test(
        code(file),
      ),
    );
    expect(touches).toEqual([]);
    expect(code(owner)).toMatch(/navigator\.serviceWorker/);
  });

  it('only the root saga loads the backend (src/backend/index.ts); every other saga is handed it', () => {
    const loaders = sourceFiles('src')
      .filter((file) => !isUnder(file, 'src/backend'))
      .filter((file) =>
        importSpecifiers(read(file)).some((specifier) =>
          ['src/backend', 'src/backend/index'].includes(resolveImport(file, specifier)),
        ),
      );
    expect(loaders).toEqual(['src/app/rootSaga.ts']);
  });
});

/** Every slice's actions: `name` → the reducer names it exports, plus the createAction events (`domain/name`). */
function actionsBySlice(): Map<string, string[]> {
  // Slices, and the modules that create events of their own: src/store/messages.ts (messagesArrived, which two
  // slices react to) and the conversation window's actions (they load with the conversation view).
  const files = [...sourceFiles('src/store'), ...sourceFiles('src/features')].filter((f) =>
    /\bcreate(Slice|Action)\b/.test(code(f)),
  );
  const slices = new Map<string, string[]>();
  for (const file of files) {
    const source = code(file);
    const name = /createSlice\(\{\s*name:\s*'([^']+)'/.exec(source)?.[1];
    const exported = /export const \{([^}]*)\}\s*=\s*\w+\.actions/.exec(source)?.[1];
    if (name && exported)
      slices.set(
        name,
        exported
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      );
    for (const [, domain = '', action = ''] of source.matchAll(
      /createAction(?:<[^>]*>)?\(\s*'([^'/]+)\/([^']+)'/g,
    ))
      slices.set(domain, [...(slices.get(domain) ?? []), action]);
  }
  return slices;
}

describe('the event rules (STYLE 3)', () => {
  const slices = actionsBySlice();

  it('finds every slice and its actions', () => {
    expect([...slices.keys()]).toEqual(
      expect.arrayContaining(['app', 'auth', 'user', 'push', 'version', 'settings']),
    );
    expect(slices.get('user')).toEqual([
      'signedOut',
      'signedIn',
      'accountLoaded',
      'docChanged',
      'lastKnownShown',
    ]);
    expect(slices.get('messages')).toEqual(['arrived']);
    expect(slices.get('conversation')).toEqual(expect.arrayContaining(['messagesLoaded', 'newerRequested']));
  });

  it("spells no action type (a 'user/signedOut' string): a reaction imports the action's creator", () => {
    const domains = [...slices.keys()].join('|');
    const spelled = new RegExp(`['"\`](${domains})/[A-Za-z]+['"\`]`);
    const files = sourceFiles('src').filter(
      (file) => !isUnder(file, 'src/backend') && !isUnder(file, 'src/sw'),
    );
    const offenders = files.flatMap((file) =>
      code(file)
        .split('\n')
        .filter((line) => spelled.test(line) && !/createAction(<[^>]*>)?\(/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('names every action as a past-tense event or a …Requested intent', () => {
    // Past participles: regular (-ed) and the irregular ones the app uses.
    const event = /(ed|edIn|edOut|Requested|Shown|Hidden|Seen|Read|Reset|TookControl)$/;
    const misnamed = [...slices].flatMap(([domain, actions]) =>
      actions.filter((action) => !event.test(action)).map((action) => `${domain}/${action}`),
    );
    expect(misnamed).toEqual([]);
  });
});
