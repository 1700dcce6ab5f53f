/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The welcome that public/index.html draws before any script is the one React draws at "/" signed out: the same
// elements, classes, attributes and words, so nothing moves or changes when React takes over. Its script shows it
// only at "/" with no stored session, and the sign-in card stays inert until React has it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { LOCAL_STORAGE_KEYS } from '@/platform/storageKeys';
import { renderRoutesAt } from '../support/renderRoutes';

const html = readFileSync(path.join(__dirname, '../../public/index.html'), 'utf8');
/** The template as the local build emits it (html-webpack-plugin's lodash conditions taken for `local`). */
const localShell = html.replace(/<% if \(backend === 'local'\) \{ %>|<% \} %>/g, '');

const shellDocument = (): Document => new DOMParser().parseFromString(localShell, 'text/html');

function prerendered(): Element {
  const welcome = shellDocument().querySelector('#root > [data-prerendered="welcome"]');
  if (!welcome) throw new Error('no pre-rendered welcome in public/index.html');
  return welcome;
}

/**
 * The page as the browser has it before any other script: the shell's head (its styles) and #root, with the
 * inline script that picks the first screen run as the browser runs it, in the head.
 */
function runBootScript(): void {
  const source = /<script>([\s\S]*?)<\/script>/.exec(localShell)?.[1];
  if (!source) throw new Error('no inline script in public/index.html');
  const shell = shellDocument();
  document.documentElement.removeAttribute('data-welcome');
  document.head.innerHTML = shell.head.innerHTML;
  document.body.innerHTML = shell.body.innerHTML;
  new Function(source)();
}

/** The pre-rendered parts the page shows (the browser's computed display), by their data-prerendered names. */
function shown(): string[] {
  return [...document.querySelectorAll('#root > [data-prerendered]')]
    .filter((element) => getComputedStyle(element).display !== 'none')
    .map((element) => element.getAttribute('data-prerendered') ?? '');
}

/**
 * Serialised in one way for both sides: whitespace as a browser draws it (runs as one space; none between elements,
 * where the formatted file has line breaks), and without `inert`, the pre-rendered card's own (React's is live).
 */
function normalised(root: Element): string {
  const copy = root.cloneNode(true) as Element;
  copy.normalize();
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  while (walker.nextNode()) texts.push(walker.currentNode as Text);
  for (const text of texts) {
    if (text.data.trim() === '') text.remove();
    else text.data = text.data.replace(/\s+/g, ' ');
  }
  for (const element of copy.querySelectorAll('[inert]')) element.removeAttribute('inert');
  for (const element of copy.querySelectorAll('[data-prerendered]'))
    element.removeAttribute('data-prerendered');
  // The announcer and the notices' region are empty, out of the flow, and drawn by React alone.
  for (const element of copy.querySelectorAll('[data-testid="route-announcer"], section.notices'))
    element.remove();
  return copy.innerHTML;
}

describe('the pre-rendered welcome', () => {
  afterEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('is what React draws at "/" for someone signed out', async () => {
    renderRoutesAt('/');
    await screen.findByRole('heading', { level: 1, name: 'Advice, in one place' }, { timeout: 10_000 });
    const drawn = document.body.firstElementChild;
    if (!drawn) throw new Error('nothing rendered');
    const holder = document.createElement('div');
    holder.append(document.importNode(prerendered(), true));
    expect(normalised(holder)).toBe(normalised(drawn));
  });

  it('keeps its sign-in card inert until React takes over, so nothing can be typed or sent before', () => {
    const card = prerendered().querySelector('.auth');
    expect(card?.hasAttribute('inert')).toBe(true);
    expect(card?.querySelector('form')).not.toBeNull();
  });

  it('is shown at "/" when no session is stored', () => {
    runBootScript();
    expect(shown()).toEqual(['welcome']);
  });

  it('is not shown when a session is stored: the loading screen stays until the backend answers', () => {
    localStorage.setItem(LOCAL_STORAGE_KEYS.localSession, '{}');
    runBootScript();
    expect(shown()).toEqual(['boot']);
  });

  it('is not shown at another address', () => {
    window.history.replaceState(null, '', '/services');
    runBootScript();
    expect(shown()).toEqual(['boot']);
  });
});
