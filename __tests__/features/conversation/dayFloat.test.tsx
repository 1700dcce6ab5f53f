/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The day floating over the conversation while it scrolls: the day of the message at the top of the view (not of
// the rows drawn above it for scrolling back), shown only while the list scrolls and away from its top; each scroll
// (virtuoso's own follow of every new message too) draws the label alone, not the list that holds it.
import { act, cleanup, render, screen } from '@testing-library/react';
import { DayFloat, FloatingDay, topMessageId } from '@/features/conversation/dayFloat';

afterEach(cleanup);

function renderFloat(dayAtTop: () => string | null, atTop = false) {
  const float = new DayFloat(dayAtTop);
  let listRenders = 0;
  function List({ top }: { top: boolean }) {
    listRenders += 1;
    return (
      <div>
        <FloatingDay float={float} atTop={top} />
      </div>
    );
  }
  const view = render(<List top={atTop} />);
  const label = () => screen.queryByText(/^(Today|Yesterday)$/);
  const rerender = (top: boolean) => view.rerender(<List top={top} />);
  return { float, label, listRenders: () => listRenders, rerender };
}

describe('the floating day', () => {
  it('shows the day at the top while the list scrolls, follows it as rows change, and goes when the scroll ends', () => {
    let day: string | null = 'Today';
    const { float, label } = renderFloat(() => day);
    expect(label()).toBeNull();
    act(() => float.scrolling(true));
    expect(label()?.textContent).toBe('Today');
    day = 'Yesterday';
    act(() => float.moved());
    expect(label()?.textContent).toBe('Yesterday');
    act(() => float.scrolling(false));
    expect(label()).toBeNull();
  });

  it('is not shown at the top of the list (the first day’s heading is there), nor without a day', () => {
    let day: string | null = 'Today';
    const { float, label, rerender } = renderFloat(() => day, true);
    act(() => float.scrolling(true));
    expect(label()).toBeNull();
    rerender(false);
    expect(label()?.textContent).toBe('Today');
    day = null;
    act(() => float.moved());
    expect(label()).toBeNull();
  });

  it('reads the page only while the list scrolls', () => {
    const dayAtTop = jest.fn(() => 'Today');
    const { float } = renderFloat(dayAtTop);
    act(() => float.moved());
    expect(dayAtTop).not.toHaveBeenCalled();
    act(() => float.scrolling(true));
    act(() => float.moved());
    expect(dayAtTop).toHaveBeenCalledTimes(2);
  });

  it('draws only itself as scrolls start and end and the day changes, never the list around it', () => {
    let day = 'Today';
    const { float, listRenders, label } = renderFloat(() => day);
    const before = listRenders();
    act(() => float.scrolling(true));
    act(() => float.scrolling(false));
    act(() => float.scrolling(true));
    day = 'Yesterday';
    act(() => float.moved());
    expect(label()?.textContent).toBe('Yesterday');
    expect(listRenders()).toBe(before);
  });

  it('tells nobody of a change that is none', () => {
    const float = new DayFloat(() => 'Today');
    const heard = jest.fn();
    const stop = float.subscribe(heard);
    float.scrolling(false);
    float.moved();
    expect(heard).not.toHaveBeenCalled();
    float.scrolling(true);
    float.moved();
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
    float.scrolling(false);
    expect(heard).toHaveBeenCalledTimes(1);
  });
});

describe('topMessageId', () => {
  /** A scroller whose top is at 100 px, holding bubbles at the given [top, bottom] (jsdom lays nothing out). */
  function scrollerWith(rows: Array<[string, number, number]>): HTMLElement {
    const scroller = document.createElement('div');
    scroller.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 100, width: 400, height: 600 });
    for (const [id, top, bottom] of rows) {
      const bubble = document.createElement('article');
      bubble.dataset.messageId = id;
      bubble.getBoundingClientRect = () =>
        DOMRect.fromRect({ x: 0, y: top, width: 400, height: bottom - top });
      scroller.append(bubble);
    }
    return scroller;
  }

  it('is the first message whose bubble reaches below the top of the view, not one drawn above it', () => {
    const scroller = scrollerWith([
      ['drawn-ahead', -700, -640],
      ['above', 30, 100],
      ['cut', 90, 150],
      ['shown', 160, 220],
    ]);
    expect(topMessageId(scroller)).toBe('cut');
  });

  it('is none without a scroller or a bubble in view', () => {
    expect(topMessageId(null)).toBeNull();
    expect(topMessageId(scrollerWith([['above', 0, 50]]))).toBeNull();
  });
});
