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

function prerendered(): HTMLTemplateElement {
  const doc = new DOMParser().parseFromString(localShell, 'text/html');
  const template = doc.getElementById('boot-welcome');
  if (!(template instanceof HTMLTemplateElement)) throw new Error('no welcome template in public/index.html');
  return template;
}

/** The inline script that picks the first screen, run as the browser runs it. */
function runBootScript(): void {
  const source = /<script>([\s\S]*?)<\/script>/.exec(localShell)?.[1];
  if (!source) throw new Error('no inline script in public/index.html');
  document.body.innerHTML = '<div id="root"><div class="boot">Loading QuPM...</div></div>';
  document.body.append(document.importNode(prerendered(), true));
  new Function(source)();
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
    holder.append(prerendered().content.cloneNode(true));
    expect(normalised(holder)).toBe(normalised(drawn));
  });

  it('keeps its sign-in card inert until React takes over, so nothing can be typed or sent before', () => {
    const card = prerendered().content.querySelector('.auth');
    expect(card?.hasAttribute('inert')).toBe(true);
    expect(card?.querySelector('form')).not.toBeNull();
  });

  it('is shown at "/" when no session is stored', () => {
    runBootScript();
    expect(document.querySelector('#root h1')?.textContent).toBe('Advice, in one place');
    expect(document.querySelector('#root .boot')).toBeNull();
  });

  it('is not shown when a session is stored: the loading screen stays until the backend answers', () => {
    localStorage.setItem(LOCAL_STORAGE_KEYS.localSession, '{}');
    runBootScript();
    expect(document.querySelector('#root .boot')).not.toBeNull();
    expect(document.querySelector('#root h1')).toBeNull();
  });

  it('is not shown at another address', () => {
    window.history.replaceState(null, '', '/services');
    runBootScript();
    expect(document.querySelector('#root .boot')).not.toBeNull();
  });
});
