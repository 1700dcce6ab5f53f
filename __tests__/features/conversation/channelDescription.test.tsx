/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The channel's description in the conversation's header: two lines on a phone, and "Show all" only when that cuts
// it. jsdom lays nothing out, so the browser edge is stood in for: the paragraph's heights, and ResizeObserver.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ChannelDescription } from '@/features/conversation/ChannelDescription';

const TEXT = 'Weekly office hours on acquisition, retention and experiments.';

let heights = { scroll: 40, client: 40 };
let observed: Array<() => void> = [];

beforeEach(() => {
  heights = { scroll: 40, client: 40 };
  observed = [];
  jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(() => heights.scroll);
  jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => heights.client);
  class FakeResizeObserver {
    constructor(private readonly callback: () => void) {}
    observe(): void {
      observed.push(this.callback);
    }
    disconnect(): void {
      observed = observed.filter((callback) => callback !== this.callback);
    }
  }
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = FakeResizeObserver;
});
afterEach(() => {
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
});

const resize = (scroll: number, client: number): void => {
  heights = { scroll, client };
  act(() => observed.forEach((callback) => callback()));
};

describe('ChannelDescription', () => {
  it('shows the whole description with no button when it fits', () => {
    render(<ChannelDescription text={TEXT} />);
    expect(screen.getByText(TEXT)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers "Show all" when two lines cut it, and opens and closes it in place', () => {
    heights = { scroll: 96, client: 48 };
    render(<ChannelDescription text={TEXT} />);
    const more = screen.getByRole('button', { name: 'Show all' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    // Opened, the paragraph is no longer cut; the button stays to close it again.
    resize(96, 96);
    const less = screen.getByRole('button', { name: 'Show less' });
    expect(less.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(TEXT).className).toContain('conversation__description--open');
    fireEvent.click(less);
    resize(96, 48);
    expect(screen.getByRole('button', { name: 'Show all' })).toBeTruthy();
    expect(screen.getByText(TEXT).className).not.toContain('--open');
  });

  it('measures again when its width changes: a rotated phone may stop cutting it', () => {
    heights = { scroll: 96, client: 48 };
    const { unmount } = render(<ChannelDescription text={TEXT} />);
    expect(screen.getByRole('button', { name: 'Show all' })).toBeTruthy();
    resize(48, 48);
    expect(screen.queryByRole('button')).toBeNull();
    resize(72, 48);
    expect(screen.getByRole('button', { name: 'Show all' })).toBeTruthy();
    unmount();
    expect(observed).toEqual([]);
  });
});
