/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// KeepPlace (MessageList.tsx): the row at the top of the view is held where it was while an older page lands
// above it, frame by frame, and let go when the list is taken to its newest or started again. jsdom lays nothing
// out, so the scroller and its one row report boxes from the scroller's scrollTop (the browser edge).
import { createRef } from 'react';
import { act, render } from '@testing-library/react';
import { KeepPlace } from '@/features/conversation/MessageList';

/** A scroller 600 px high with the row numbered 105 at 200 px from the list's top. */
function scroller(): HTMLElement {
  const element = document.createElement('div');
  const row = document.createElement('div');
  row.className = 'messages__row';
  row.dataset.itemIndex = '105';
  element.append(row);
  document.body.append(element);
  element.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 400, height: 600 });
  row.getBoundingClientRect = () =>
    DOMRect.fromRect({ x: 0, y: 200 - element.scrollTop, width: 400, height: 60 });
  return element;
}

function keeping(element: HTMLElement) {
  const ref = createRef<KeepPlace>();
  const draw = (firstItemIndex: number, generation = 1) => (
    <KeepPlace ref={ref} firstItemIndex={firstItemIndex} generation={generation} scroller={() => element}>
      <p>rows</p>
    </KeepPlace>
  );
  const view = render(draw(100));
  return {
    ref,
    rerender: (firstItemIndex: number, generation?: number) =>
      view.rerender(draw(firstItemIndex, generation)),
  };
}

const frames = (count: number) =>
  act(() => {
    jest.advanceTimersByTime(count * 16);
  });

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
  document.body.replaceChildren();
});

describe('KeepPlace', () => {
  it('holds the row at the top of the view where it was while an older page lands above it', () => {
    const element = scroller();
    element.scrollTop = 100;
    const { rerender } = keeping(element);
    rerender(70);
    // The new rows are measured: the list's content moves 40 px down under the view.
    element.scrollTop = 60;
    frames(2);
    expect(element.scrollTop).toBe(100);
  });

  it('lets go when the list is taken to its newest, so it does not scroll back to the row it kept', () => {
    const element = scroller();
    element.scrollTop = 100;
    const { ref, rerender } = keeping(element);
    rerender(70);
    frames(2);
    // "Jump to latest": the list goes to its bottom and the row kept is drawn again higher up.
    act(() => ref.current?.release());
    element.scrollTop = 540;
    frames(20);
    expect(element.scrollTop).toBe(540);
  });

  it('lets go when the list is started again at the newest (another generation)', () => {
    const element = scroller();
    element.scrollTop = 100;
    const { rerender } = keeping(element);
    rerender(70);
    frames(2);
    rerender(70, 2);
    element.scrollTop = 540;
    frames(20);
    expect(element.scrollTop).toBe(540);
  });
});
