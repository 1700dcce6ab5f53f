/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The local build's shell loader (webpack.config.ts SHELL_LOADER): the shell's scripts and the first screen's
// preloads are asked for after the first frame, in order, once; a page that paints no frame (opened in the
// background) still gets them after 300 ms.
import { SHELL_LOADER } from '../../webpack.config';

const FILES = {
  preload: ['/static/js/route-main.0123abcd.chunk.js', '/static/js/backend-local.0123abcd.chunk.js'],
  scripts: [
    '/static/js/runtime.0123abcd.js',
    '/static/js/framework.0123abcd.js',
    '/static/js/main.0123abcd.js',
  ],
};

let frames: FrameRequestCallback[];

beforeEach(() => {
  jest.useFakeTimers();
  frames = [];
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    frames.push(callback);
    return frames.length;
  });
  document.head.innerHTML = '';
  document.body.innerHTML = `<div id="root"></div><script type="application/json" id="qupm-shell-files">${JSON.stringify(
    FILES,
  )}</script>`;
  // The loader as the page runs it: an inline script, in the page's global scope.
  new Function(SHELL_LOADER)();
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const scripts = () =>
  [...document.querySelectorAll('script[src]')].map((s) => [
    s.getAttribute('src'),
    (s as HTMLScriptElement).async,
  ]);
const preloads = () =>
  [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => [
    l.getAttribute('href'),
    l.getAttribute('as'),
  ]);

describe('the shell loader', () => {
  it('asks for nothing before the first frame is painted', () => {
    expect(scripts()).toEqual([]);
    expect(preloads()).toEqual([]);
    expect(frames).toHaveLength(1);
  });

  it('asks for the shell scripts in order (run in that order) and the preloads after the first frame', () => {
    frames[0]!(0);
    expect(scripts()).toEqual([]);
    jest.advanceTimersByTime(0);
    expect(scripts()).toEqual(FILES.scripts.map((src) => [src, false]));
    expect(preloads()).toEqual(FILES.preload.map((href) => [href, 'script']));
    // The fallback timer does not ask again.
    jest.advanceTimersByTime(1_000);
    expect(scripts()).toHaveLength(FILES.scripts.length);
    expect(preloads()).toHaveLength(FILES.preload.length);
  });

  it('asks for them after 300 ms when no frame is painted (a page opened in the background), once', () => {
    jest.advanceTimersByTime(299);
    expect(scripts()).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(scripts()).toEqual(FILES.scripts.map((src) => [src, false]));
    frames[0]!(0);
    jest.advanceTimersByTime(0);
    expect(scripts()).toHaveLength(FILES.scripts.length);
  });
});
