// The day of the row at the top of the conversation's view, floating over the list while it scrolls (MessageList).
import { useSyncExternalStore } from 'react';

/**
 * The message at the top of the view: the first bubble whose bottom is below the scroller's top. Not virtuoso's
 * first rendered row, which is up to a screen above the view (rows drawn ahead for scrolling back): its day was
 * "Yesterday" over a view of today's messages.
 */
export function topMessageId(scroller: HTMLElement | null): string | null {
  if (!scroller) return null;
  const top = scroller.getBoundingClientRect().top;
  for (const bubble of scroller.querySelectorAll<HTMLElement>('[data-message-id]')) {
    if (bubble.getBoundingClientRect().bottom > top) return bubble.dataset.messageId ?? null;
  }
  return null;
}

interface FloatState {
  scrolling: boolean;
  day: string | null;
}

/**
 * The floating day in a small store of its own: virtuoso says when a scroll starts and ends (its own follow of each
 * new message too) and when the rows drawn change. Kept in the list's state, each of those drew the whole list again
 * (three times per message arriving). The day is read (`dayAtTop`, from the page) only while the list scrolls.
 */
export class DayFloat {
  private state: FloatState = { scrolling: false, day: null };
  private readonly listeners = new Set<() => void>();

  constructor(private dayAtTop: () => string | null = () => null) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly get = (): FloatState => this.state;

  /** How the day at the top is read now (the list's messages change). */
  readFrom(dayAtTop: () => string | null): void {
    this.dayAtTop = dayAtTop;
  }

  readonly scrolling = (scrolling: boolean): void => {
    this.set({ scrolling, day: scrolling ? this.dayAtTop() : this.state.day });
  };

  /** The rows drawn changed: while scrolling, the day at the top may have. */
  readonly moved = (): void => {
    if (this.state.scrolling) this.set({ ...this.state, day: this.dayAtTop() });
  };

  private set(next: FloatState): void {
    if (next.scrolling === this.state.scrolling && next.day === this.state.day) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

export function FloatingDay({ float, atTop }: { float: DayFloat; atTop: boolean }) {
  const { scrolling, day } = useSyncExternalStore(float.subscribe, float.get);
  if (!scrolling || atTop || !day) return null;
  return (
    <p className="messages__day-float" aria-hidden="true">
      {day}
    </p>
  );
}
