/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
import { renderHook } from '@testing-library/react';
import { useFollowedFirstIndex } from '@/features/conversation/followedFirstIndex';

const render = (first: number, generation = 1, following = true) =>
  renderHook(
    (props: { first: number; generation: number; following: boolean }) =>
      useFollowedFirstIndex(props.first, props.generation, props.following),
    { initialProps: { first, generation, following } },
  );

describe('useFollowedFirstIndex', () => {
  it('starts at the slice’s first index', () => {
    expect(render(100).result.current).toBe(100);
  });

  it('stays put while following as the window lets its oldest go, and still moves down for rows added above', () => {
    const { result, rerender } = render(100);
    rerender({ first: 103, generation: 1, following: true });
    expect(result.current).toBe(100);
    rerender({ first: 105, generation: 1, following: true });
    expect(result.current).toBe(100);
    // Away from the newest: an older page added above (30 rows) moves it down by as many.
    rerender({ first: 75, generation: 1, following: false });
    expect(result.current).toBe(70);
  });

  it('moves up with rows let go while the person reads further up (virtuoso shifts the view by their height)', () => {
    const { result, rerender } = render(100, 1, false);
    rerender({ first: 130, generation: 1, following: false });
    expect(result.current).toBe(130);
    rerender({ first: 130, generation: 1, following: true });
    rerender({ first: 131, generation: 1, following: true });
    expect(result.current).toBe(130);
  });

  it('moves up with the rows let go by the page forward that reaches the newest', () => {
    const { result, rerender } = render(100, 1, false);
    rerender({ first: 120, generation: 1, following: true });
    expect(result.current).toBe(120);
    rerender({ first: 121, generation: 1, following: true });
    expect(result.current).toBe(120);
  });

  it('starts again with a new generation of the list', () => {
    const { result, rerender } = render(100);
    rerender({ first: 110, generation: 1, following: true });
    expect(result.current).toBe(100);
    rerender({ first: 0, generation: 2, following: true });
    expect(result.current).toBe(0);
    rerender({ first: 4, generation: 2, following: true });
    expect(result.current).toBe(0);
  });
});
