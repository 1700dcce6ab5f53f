// Measures a production build: the gzipped bytes of the shell (everything loaded before the first screen of
// `/`: the entry's JS and CSS plus the `/` route's lazy chunk) and of every route chunk, and which modules the
// shell carries. Shared by `npm run bench` and the bundle budget test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import webpack from 'webpack';
import type { StatsCompilation } from 'webpack';
import createConfig from '../webpack.config';

export const SHELL_BUDGET_BYTES = 150 * 1024;
export const HOME_ROUTE_CHUNK = 'route-main';
/** Firebase code that must load lazily, never with the shell. */
export const LAZY_ONLY_MODULES =
  /node_modules[\\/](@firebase[\\/](firestore|messaging|functions)|firebase[\\/](firestore|messaging|functions))/;

export interface AssetSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  shell: { files: AssetSize[]; gzipBytes: number; budgetBytes: number; lazyOnlyModules: string[] };
  routes: Array<{ chunk: string; files: AssetSize[]; gzipBytes: number }>;
}

/** Runs webpack's production build into `outDir` and resolves with its stats. */
export function buildProduction(outDir: string): Promise<StatsCompilation> {
  const config = createConfig({ outDir }, { mode: 'production' });
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (!stats) return reject(new Error('webpack returned no stats'));
      const json = stats.toJson({
        all: false,
        ids: true,
        nestedModules: true,
        assets: true,
        chunks: true,
        chunkModules: true,
        chunkGroups: true,
        entrypoints: true,
        errors: true,
        warnings: true,
      });
      if (stats.hasErrors()) return reject(new Error(JSON.stringify(json.errors?.slice(0, 3), null, 2)));
      resolve(json);
    });
  });
}

function measure(outDir: string, file: string): AssetSize {
  const content = readFileSync(path.join(outDir, file));
  return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

const isCode = (file: string): boolean => /\.(js|css)$/.test(file);

export function reportBundle(stats: StatsCompilation, outDir: string): BundleReport {
  const groups = stats.namedChunkGroups ?? {};
  const assetsOf = (name: string): string[] => (groups[name]?.assets ?? []).map((a) => a.name).filter(isCode);

  const shellFiles = [...new Set([...assetsOf('main'), ...assetsOf(HOME_ROUTE_CHUNK)])].sort();
  const shellChunkIds = new Set([
    ...(groups.main?.chunks ?? []),
    ...(groups[HOME_ROUTE_CHUNK]?.chunks ?? []),
  ]);
  const lazyOnlyModules = (stats.chunks ?? [])
    .filter((chunk) => chunk.id !== undefined && chunk.id !== null && shellChunkIds.has(chunk.id))
    .flatMap((chunk) => chunk.modules ?? [])
    .flatMap((m) => [m.name ?? '', ...(m.modules ?? []).map((inner) => inner.name ?? '')])
    .filter((name) => LAZY_ONLY_MODULES.test(name));

  const shell = shellFiles.map((file) => measure(outDir, file));
  const routes = Object.keys(groups)
    .filter((name) => name.startsWith('route-'))
    .sort()
    .map((chunk) => {
      const files = assetsOf(chunk).map((file) => measure(outDir, file));
      return { chunk, files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
    });

  return {
    shell: {
      files: shell,
      gzipBytes: shell.reduce((sum, f) => sum + f.gzipBytes, 0),
      budgetBytes: SHELL_BUDGET_BYTES,
      lazyOnlyModules: [...new Set(lazyOnlyModules)],
    },
    routes,
  };
}
