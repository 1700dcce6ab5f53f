/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The image viewer of a message's images: opened from a thumbnail, arrows (keys, buttons, a swipe) go round the
// message's images, zoom stays within its bounds, Tab stays inside, and Escape closes it with the focus back on
// the thumbnail that opened it.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { Attachment } from '@core/attachments';
import { AttachmentList } from '@/features/conversation/AttachmentView';
import { ZOOM_MAX } from '@/features/conversation/ImageViewer';
import { attachmentFileLoaded } from '@/features/conversation/attachmentsSlice';
import { recordActions } from '../../support/recordingStore';

const A = 'chanA000000000000001';
const image = (n: number): Attachment => ({
  id: `Attachment000000000${n}`,
  kind: 'image',
  name: `photo-${n}.png`,
  contentType: 'image/png',
  size: 4,
  width: 800,
  height: 600,
});
const images = [image(1), image(2), image(3)];

// The browser edge: jsdom's pointer events carry no pointerId or position; a real browser's do.
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 0;
  }
}
beforeAll(() => {
  Object.defineProperty(window, 'PointerEvent', { value: TestPointerEvent, configurable: true });
});
afterEach(cleanup);

function renderList() {
  const { store } = recordActions();
  render(
    <Provider store={store}>
      <AttachmentList channelId={A} attachments={images} />
    </Provider>,
  );
  act(() => {
    for (const file of images)
      store.dispatch(attachmentFileLoaded({ id: file.id, url: `blob:qupm/${file.id}` }));
  });
  return store;
}

const viewer = () => screen.getByRole('dialog');
const shown = () => viewer().querySelector('img')?.getAttribute('src');

function open(n: number) {
  const thumbnail = screen.getByRole('button', { name: `Open photo-${n}.png` });
  thumbnail.focus();
  fireEvent.click(thumbnail);
  return thumbnail;
}

describe('ImageViewer', () => {
  it('opens full screen at the image clicked, as a modal dialog with Close focused', () => {
    renderList();
    open(2);
    expect(viewer().getAttribute('aria-modal')).toBe('true');
    expect(viewer().getAttribute('aria-label')).toBe('Image 2 of 3: photo-2.png');
    expect(shown()).toBe(`blob:qupm/${images[1]?.id}`);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });

  it('goes to the next and previous image with the arrow keys and buttons, round the message', () => {
    renderList();
    open(3);
    fireEvent.keyDown(viewer(), { key: 'ArrowRight' });
    expect(viewer().getAttribute('aria-label')).toBe('Image 1 of 3: photo-1.png');
    fireEvent.keyDown(viewer(), { key: 'ArrowLeft' });
    expect(viewer().getAttribute('aria-label')).toBe('Image 3 of 3: photo-3.png');
    fireEvent.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(shown()).toBe(`blob:qupm/${images[1]?.id}`);
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(shown()).toBe(`blob:qupm/${images[2]?.id}`);
  });

  it('turns the page on a sideways swipe, and not on a short or upright one', () => {
    renderList();
    open(1);
    const stage = viewer().querySelector('.image-viewer__stage') as HTMLElement;
    const swipe = (from: number, to: number, dy = 0) => {
      fireEvent.pointerDown(stage, { pointerId: 1, clientX: from, clientY: 100 });
      fireEvent.pointerMove(stage, { pointerId: 1, clientX: to, clientY: 100 + dy });
      fireEvent.pointerUp(stage, { pointerId: 1, clientX: to, clientY: 100 + dy });
    };
    swipe(300, 280);
    expect(shown()).toBe(`blob:qupm/${images[0]?.id}`);
    swipe(300, 200, 300);
    expect(shown()).toBe(`blob:qupm/${images[0]?.id}`);
    swipe(300, 200);
    expect(shown()).toBe(`blob:qupm/${images[1]?.id}`);
    swipe(200, 300);
    expect(shown()).toBe(`blob:qupm/${images[0]?.id}`);
  });

  it('zooms with a pinch, keys and buttons, within 1x to 4x', () => {
    renderList();
    open(1);
    const img = () => viewer().querySelector('img') as HTMLElement;
    const stage = viewer().querySelector('.image-viewer__stage') as HTMLElement;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerDown(stage, { pointerId: 2, clientX: 200, clientY: 100 });
    fireEvent.pointerMove(stage, { pointerId: 2, clientX: 300, clientY: 100 });
    expect(img().style.transform).toContain('scale(2)');
    fireEvent.pointerUp(stage, { pointerId: 2, clientX: 300, clientY: 100 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 100, clientY: 100 });
    for (let i = 0; i < 10; i += 1) fireEvent.keyDown(viewer(), { key: '+' });
    expect(img().style.transform).toContain(`scale(${ZOOM_MAX})`);
    expect(screen.getByRole('button', { name: 'Zoom in' })).toHaveProperty('disabled', true);
    for (let i = 0; i < 10; i += 1) fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(img().style.transform).toContain('scale(1)');
  });

  it('keeps Tab inside the viewer', () => {
    renderList();
    open(1);
    const next = screen.getByRole('button', { name: 'Next image' });
    next.focus();
    fireEvent.keyDown(next, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Zoom in' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(next);
  });

  it('closes on Escape and gives the focus back to the thumbnail that opened it', () => {
    renderList();
    const thumbnail = open(2);
    fireEvent.keyDown(viewer(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(thumbnail);
  });
});
