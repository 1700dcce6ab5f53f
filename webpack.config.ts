// Build of the QuPM PWA: one shell entry, one lazy chunk per route, extracted CSS, and the
// service worker compiled from src/sw/index.ts by Workbox's InjectManifest.
import path from 'node:path';
import type { Configuration as WebpackConfiguration } from 'webpack';
import webpack from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import MinimizerPlugin from 'minimizer-webpack-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import { InjectManifest } from 'workbox-webpack-plugin';
import ReactRefreshWebpackPlugin from '@pmmmwh/react-refresh-webpack-plugin';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

type Configuration = WebpackConfiguration & { devServer?: DevServerConfiguration };

interface CliEnv {
  WEBPACK_SERVE?: boolean;
  /** Output folder, relative to the project; the bundle test builds into a temporary one. */
  outDir?: string;
}
interface CliArgv {
  mode?: 'production' | 'development';
}

const root = __dirname;
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

/** The public Firebase web config (src/backend/firebase/config.ts); named one by one so no secret leaks in. */
const FIREBASE_PUBLIC_ENV = [
  'QUPM_FIREBASE_API_KEY',
  'QUPM_FIREBASE_AUTH_DOMAIN',
  'QUPM_FIREBASE_PROJECT_ID',
  'QUPM_FIREBASE_APP_ID',
  'QUPM_FIREBASE_MESSAGING_SENDER_ID',
  'QUPM_FIREBASE_STORAGE_BUCKET',
  'QUPM_VAPID_PUBLIC_KEY',
  'QUPM_FIREBASE_FUNCTIONS_REGION',
  // Emulators for tests and local runs (src/backend/firebase/config.ts FIREBASE_EMULATOR_ENV_VARIABLES): unset
  // in a build for the project, which then has none.
  'QUPM_FIREBASE_AUTH_EMULATOR_HOST',
  'QUPM_FIREBASE_FIRESTORE_EMULATOR_HOST',
  'QUPM_FIREBASE_FUNCTIONS_EMULATOR_HOST',
  'QUPM_FIREBASE_STORAGE_EMULATOR_HOST',
];

/** Text assets worth compressing: the server sends the .br or .gz copy to a browser that accepts it. */
const COMPRESSIBLE = /\.(js|css|html|webmanifest|json|svg|txt)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes a Brotli and a gzip copy beside each text asset (the embedded server serves them precompressed, so no
 * request pays for compression). Runs last, after Workbox has written sw.js, and the copies are kept out of the
 * precache (the worker fetches the plain files and the browser negotiates the encoding).
 */
class PrecompressPlugin {
  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PrecompressPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          for (const [name, asset] of Object.entries(assets)) {
            if (!COMPRESSIBLE.test(name)) continue;
            const source = asset.buffer();
            if (source.length < MIN_COMPRESS_BYTES) continue;
            const brotli = brotliCompressSync(source, {
              params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY },
            });
            compilation.emitAsset(`${name}.br`, new webpack.sources.RawSource(brotli));
            compilation.emitAsset(
              `${name}.gz`,
              new webpack.sources.RawSource(gzipSync(source, { level: 9 })),
            );
          }
        },
      );
    });
  }
}

/**
 * The local build's shell loader (public/index.html draws the welcome before any script): the shell's scripts and the
 * first screen's preloads are asked for once the first frame is painted, so on a slow network the page's first paint
 * (and its largest, the welcome) has the bandwidth to itself. A page opened in the background paints no frame: after
 * 300 ms the scripts are asked for anyway. Dynamic scripts with `async = false` run in the order they were added. Its
 * text is fixed (the file names are in the JSON block before it), so its CSP hash only changes with it.
 */
export const SHELL_LOADER = `(function () {
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var files = JSON.parse(document.getElementById('qupm-shell-files').textContent);
    files.preload.forEach(function (href) {
      var link = document.createElement('link');
      link.setAttribute('rel', 'preload');
      link.setAttribute('as', 'script');
      link.setAttribute('href', href);
      document.head.appendChild(link);
    });
    files.scripts.forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.body.appendChild(script);
    });
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 300);
})();`;

/**
 * The first screen needs two lazy chunks besides the shell: the home route's and the backend adapter's (its answer
 * says whether anyone is signed in). Found by the router and the auth saga only after the shell has run, they would
 * load one after the other; a preload hint for each (with the chunks they depend on, and the route's CSS) starts them
 * beside the shell. In index.html's head, or, with `afterFirstPaint`, asked for with the shell by SHELL_LOADER.
 */
class PreloadFirstScreenPlugin {
  /**
   * `stylesheetGroups`: chunk groups whose CSS is linked as a stylesheet instead (render-blocking, but small): the
   * pre-rendered welcome needs the home route's CSS at its first paint.
   */
  constructor(
    private readonly chunkGroups: string[],
    private readonly stylesheetGroups: string[] = [],
    private readonly afterFirstPaint = false,
  ) {}

  apply(compiler: webpack.Compiler): void {
    compiler.hooks.thisCompilation.tap('PreloadFirstScreenPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadFirstScreenPlugin', (data) => {
        const inShell = new Set<string>();
        for (const entry of compilation.entrypoints.values())
          for (const chunk of entry.chunks) for (const file of chunk.files) inShell.add(file);
        const files = new Set<string>();
        for (const name of this.chunkGroups) {
          const group = compilation.namedChunkGroups.get(name);
          if (!group) throw new Error(`PreloadFirstScreenPlugin: no chunk group named ${name}`);
          for (const chunk of group.chunks)
            for (const file of chunk.files)
              if (!inShell.has(file) && /\.(js|css)$/.test(file)) files.add(file);
        }
        const stylesheets = new Set<string>();
        for (const name of this.stylesheetGroups)
          for (const chunk of compilation.namedChunkGroups.get(name)?.chunks ?? [])
            for (const file of chunk.files) if (file.endsWith('.css')) stylesheets.add(file);
        const publicPath = String(compilation.outputOptions.publicPath ?? '/');
        if (this.afterFirstPaint) {
          const scripts = data.bodyTags.filter((tag) => tag.tagName === 'script' && tag.attributes.src);
          const preload = [...files].filter((file) => file.endsWith('.js')).sort();
          const shellFiles = {
            preload: preload.map((file) => publicPath + file),
            scripts: scripts.map((tag) => String(tag.attributes.src)),
          };
          data.bodyTags = [
            ...data.bodyTags.filter((tag) => !scripts.includes(tag)),
            HtmlWebpackPlugin.createHtmlTagObject(
              'script',
              { type: 'application/json', id: 'qupm-shell-files' },
              JSON.stringify(shellFiles),
            ),
            HtmlWebpackPlugin.createHtmlTagObject('script', {}, SHELL_LOADER),
          ];
          for (const file of [...files].filter((name) => name.endsWith('.css')).sort())
            data.headTags.push(
              stylesheets.has(file)
                ? HtmlWebpackPlugin.createHtmlTagObject('link', {
                    href: publicPath + file,
                    rel: 'stylesheet',
                  })
                : HtmlWebpackPlugin.createHtmlTagObject('link', {
                    rel: 'preload',
                    as: 'style',
                    href: publicPath + file,
                  }),
            );
          return data;
        }
        const tags = [...files].sort().map((file) =>
          stylesheets.has(file)
            ? HtmlWebpackPlugin.createHtmlTagObject('link', { href: publicPath + file, rel: 'stylesheet' })
            : HtmlWebpackPlugin.createHtmlTagObject('link', {
                rel: 'preload',
                as: file.endsWith('.css') ? 'style' : 'script',
                href: publicPath + file,
              }),
        );
        data.headTags.push(...tags);
        return data;
      });
    });
  }
}

// spec §9: chunk load timeout 120 s.
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export default function config(env: CliEnv = {}, argv: CliArgv = {}): Configuration {
  const production = (argv.mode ?? process.env.NODE_ENV) !== 'development';
  const serving = Boolean(env.WEBPACK_SERVE);
  const backend = process.env.QUPM_BACKEND ?? 'local';
  if (backend !== 'local' && backend !== 'firebase') {
    throw new Error(`QUPM_BACKEND must be "local" or "firebase", not "${backend}"`);
  }
  // spec §5: push is enabled only off localhost/IP hosts unless the override flag is on; production
  // builds force it on, the dev server leaves it off. QUPM_PUSH_OVERRIDE=on|off wins over both.
  const pushOverride =
    process.env.QUPM_PUSH_OVERRIDE === undefined ? production : process.env.QUPM_PUSH_OVERRIDE === 'on';
  const outDir = path.resolve(root, env.outDir ?? 'dist');

  return {
    mode: production ? 'production' : 'development',
    context: root,
    entry: { main: './src/index.tsx' },
    output: {
      path: outDir,
      publicPath: '/',
      filename: production ? 'static/js/[name].[contenthash:8].js' : 'static/js/[name].js',
      chunkFilename: production ? 'static/js/[name].[contenthash:8].chunk.js' : 'static/js/[name].chunk.js',
      assetModuleFilename: 'static/media/[name].[contenthash:8][ext]',
      chunkLoadTimeout: CHUNK_LOAD_TIMEOUT_MS,
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        '@': path.resolve(root, 'src'),
        '@core': path.resolve(root, 'core'),
        // Firestore's pipeline regex engine, for queries QuPM never makes (the module says why).
        re2js$: path.resolve(root, 'src/backend/firebase/noPipelineRegex.ts'),
        // React Router's production build: its package resolves to the development one under every condition
        // webpack uses, which keeps its warnings (the only difference: ENABLE_DEV_WARNINGS).
        ...(production
          ? {
              'react-router$': path.resolve(root, 'node_modules/react-router/dist/production/index.mjs'),
              'react-router/dom$': path.resolve(
                root,
                'node_modules/react-router/dist/production/dom-export.mjs',
              ),
            }
          : {}),
      },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                target: 'es2020',
                transform: {
                  react: { runtime: 'automatic', development: !production, refresh: serving },
                },
              },
            },
          },
        },
        {
          test: /\.css$/,
          use: [MiniCssExtractPlugin.loader, { loader: 'css-loader', options: { importLoaders: 0 } }],
        },
        { test: /\.(png|svg|woff2?)$/, type: 'asset/resource' },
        {
          // core/ is pure (rules, words, constants: docs/ARCHITECTURE.md): a core module nothing uses is dropped
          // even when an import of it remains (core/mutes.ts would otherwise carry all of core/errors.ts into the
          // shell for an unused QupmError).
          test: /[\\/]core[\\/][^\\/]+\.ts$/,
          exclude: /node_modules/,
          sideEffects: false,
        },
      ],
    },
    optimization: {
      runtimeChunk: 'single',
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          // React, Redux and the router change rarely: one long-cached vendor chunk of the shell.
          framework: {
            test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@reduxjs|redux|redux-saga|@redux-saga|react-redux|immer|reselect|use-sync-external-store)[\\/]/,
            name: 'framework',
            chunks: 'initial',
            priority: 20,
          },
          // The app's IndexedDB wrapper (not Firebase's own older copy), used by the last known state and the
          // conversation's outbox: below splitChunks' minimum size it was copied into both chunks, and loaded twice.
          idb: {
            test: (module: webpack.Module) =>
              module.nameForCondition()?.startsWith(path.join(root, 'node_modules', 'idb', path.sep)) ??
              false,
            name: 'idb',
            chunks: 'async',
            enforce: true,
          },
        },
      },
      // JavaScript minified by swc's minifier (webpack's own minimizer plugin; swc already compiles the sources)
      // instead of webpack's default Terser: less than half the build's CPU (14 CPU-s against 31) and no bigger (the
      // scripts 1.7 KB smaller gzipped in all). webpack's default minimizer ('...') keeps the rest (the shell's HTML
      // and its inline style, whose hash firebase.json's CSP names).
      minimizeOptions: { javascript: false },
      minimizer: [
        '...',
        new MinimizerPlugin({
          minify: MinimizerPlugin.swcMinify,
          minimizerOptions: { compress: { passes: 2 }, mangle: true },
        }),
        new CssMinimizerPlugin(),
      ],
    },
    plugins: [
      new webpack.DefinePlugin({
        __APP_VERSION__: JSON.stringify(pkg.version),
        __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
        __BACKEND__: JSON.stringify(backend),
        __PUSH_HOST_OVERRIDE__: JSON.stringify(pushOverride),
        __SERVICE_WORKER__: JSON.stringify(!serving),
        // The Firebase web config is public by design (README "Deploying to Firebase"); only in firebase builds.
        __FIREBASE_ENV__: JSON.stringify(
          backend === 'firebase'
            ? Object.fromEntries(FIREBASE_PUBLIC_ENV.map((key) => [key, process.env[key]]))
            : {},
        ),
      }),
      new HtmlWebpackPlugin({
        template: './public/index.html',
        // The embedded backend's build draws the signed-out welcome before any script (public/index.html).
        templateParameters: { backend },
        inject: 'body',
        scriptLoading: 'defer',
        minify: production
          ? { collapseWhitespace: true, removeComments: true, minifyCSS: true, keepClosingSlash: true }
          : false,
      }),
      new PreloadFirstScreenPlugin(
        ['route-main', `backend-${backend}`],
        backend === 'local' ? ['route-main'] : [],
        // Not in the Firebase build: Hosting's CSP allows no inline script (and it draws no welcome before one).
        backend === 'local' && production,
      ),
      new MiniCssExtractPlugin({
        filename: production ? 'static/css/[name].[contenthash:8].css' : 'static/css/[name].css',
        chunkFilename: production
          ? 'static/css/[name].[contenthash:8].chunk.css'
          : 'static/css/[name].chunk.css',
      }),
      new CopyWebpackPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html', '**/*.svg'] } }],
      }),
      ...(serving
        ? [new ReactRefreshWebpackPlugin({ overlay: false })]
        : [
            new InjectManifest({
              swSrc: './src/sw/index.ts',
              swDest: 'sw.js',
              // Maps are for debugging, not for offline use.
              exclude: [/\.map$/, /\.LICENSE\.txt$/, /^manifest.*\.js$/, /\.(br|gz)$/],
              maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
            }),
            ...(production ? [new PrecompressPlugin()] : []),
          ]),
    ],
    performance: { hints: false },
    devServer: {
      port: Number(process.env.DEV_PORT ?? 3000),
      hot: true,
      historyApiFallback: true,
      static: false,
      client: { overlay: { errors: true, warnings: false, runtimeErrors: false } },
      // The embedded server (npm run serve) answers the API while webpack serves the app.
      proxy: [{ context: ['/api'], target: process.env.QUPM_API ?? 'http://localhost:8080', ws: false }],
    },
  };
}
