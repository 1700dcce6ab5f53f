/**
 * @jest-environment ./__tests__/support/jsdom-environment.js
 */
// The composer's attachments: a picked file is checked for its size and name before anything
// is uploaded; a good one starts its upload (the File kept out of the store); Send waits for the upload, then sends
// the file with or without text; an image in a message is drawn at its known size before its bytes arrive.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { ATTACHMENT_ACCESS_MESSAGES, ATTACHMENT_MAX_BYTES, ATTACHMENT_MESSAGES } from '@core/attachments';
import type { Attachment } from '@core/attachments';
import { AttachmentView } from '@/features/conversation/AttachmentView';
import { Composer, UPLOAD_NOT_FINISHED } from '@/features/conversation/Composer';
import { takeFile } from '@/features/conversation/pendingFiles';
import { createAppStore } from '@/app/store';
import {
  attachmentFileLoaded,
  attachmentUploaded,
  attachmentUploadRequested,
} from '@/features/conversation/attachmentsSlice';
import { messageSendRequested, selectOutboxEntries } from '@/store/outboxSlice';
import { recordActions } from '../../support/recordingStore';

const A = 'chanA000000000000001';
const photo: Attachment = {
  id: 'Attachment0000000001',
  kind: 'image',
  name: 'photo.png',
  contentType: 'image/png',
  size: 4,
  width: 560,
  height: 420,
};

// The browser edge: jsdom draws no object URLs, so each file gets a made-up one (and is let go by it).
const objectUrls = new Map<string, Blob>();
beforeEach(() => {
  objectUrls.clear();
  URL.createObjectURL = jest.fn((file: Blob) => {
    const url = `blob:thumb-${objectUrls.size + 1}`;
    objectUrls.set(url, file);
    return url;
  });
  URL.revokeObjectURL = jest.fn((url: string) => void objectUrls.delete(url));
});
afterEach(cleanup);

function renderComposer() {
  const { store, seen } = recordActions();
  render(
    <Provider store={store}>
      <Composer channelId={A} blocked={false} />
    </Provider>,
  );
  return { store, seen };
}

const pick = (file: File) =>
  fireEvent.change(screen.getByTestId('attach-input'), { target: { files: [file] } });

describe('picking a file', () => {
  it('refuses a file over 10 MB in words, and uploads nothing', () => {
    const { seen } = renderComposer();
    const big = new File(['x'], 'big.png');
    Object.defineProperty(big, 'size', { value: ATTACHMENT_MAX_BYTES + 1 });
    pick(big);
    expect(screen.getByRole('alert').textContent).toBe(`big.png: ${ATTACHMENT_MESSAGES.tooLarge}`);
    expect(seen.map((a) => a.type)).not.toContain(attachmentUploadRequested.type);
  });

  it('starts the upload of a good file, holding the File outside the store', () => {
    const { seen } = renderComposer();
    const file = new File(['abcd'], 'photo.png', { type: 'image/png' });
    pick(file);
    const requested = seen.find((a) => a.type === attachmentUploadRequested.type) as ReturnType<
      typeof attachmentUploadRequested
    >;
    expect(requested.payload).toEqual({
      uploadId: expect.any(String),
      channelId: A,
      name: 'photo.png',
      size: 4,
    });
    expect(takeFile(requested.payload.uploadId)).toBe(file);
    expect(screen.getByRole('button', { name: 'Cancel photo.png' })).toBeTruthy();
  });
});

describe('sending', () => {
  it('waits for the upload, then sends the file without text', () => {
    const { store } = renderComposer();
    pick(new File(['abcd'], 'photo.png'));
    const uploadId = store.getState().attachments?.uploads[A]?.[0]?.uploadId ?? '';
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert').textContent).toBe(UPLOAD_NOT_FINISHED);
    expect(selectOutboxEntries(store.getState())).toEqual([]);

    act(() => {
      store.dispatch(attachmentUploaded({ uploadId, attachment: photo }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(selectOutboxEntries(store.getState())).toMatchObject([
      { channelId: A, text: '', attachments: [photo] },
    ]);
    // The composer is free for the next file.
    expect(screen.queryByText('photo.png')).toBeNull();
  });

  it('still needs text when there is no file', () => {
    const { seen } = renderComposer();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert').textContent).toBe('Write a message or attach a file first.');
    expect(seen.map((a) => a.type)).not.toContain(messageSendRequested.type);
  });
});

describe('AttachmentView', () => {
  it('reserves an image’s box at its display size before the bytes, then draws it with that size', () => {
    const store = createAppStore();
    render(
      <Provider store={store}>
        <AttachmentView channelId={A} attachment={photo} />
      </Provider>,
    );
    // 560 × 420 drawn at most 280 on a side: 280 × 210.
    const placeholder = document.querySelector('.attachment--placeholder') as HTMLElement;
    expect(placeholder.style.width).toBe('280px');
    expect(placeholder.style.aspectRatio).toBe('280 / 210');
    expect(store.getState().attachments?.files[photo.id]?.status).toBe('loading');

    act(() => {
      store.dispatch(attachmentFileLoaded({ id: photo.id, url: 'blob:qupm/1' }));
    });
    const image = screen.getByRole('img', { name: 'photo.png' });
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['280', '210']);
    expect(screen.getByRole('link').getAttribute('href')).toBe('blob:qupm/1');
  });
});

const image = (name: string) => new File(['abcd'], name, { type: 'image/png' });
const requestedNames = (seen: Array<{ type: string; payload?: unknown }>) =>
  seen
    .filter((a) => a.type === attachmentUploadRequested.type)
    .map((a) => (a as ReturnType<typeof attachmentUploadRequested>).payload.name);

describe('choosing several files', () => {
  it('uploads every picked file and shows each as a thumbnail with its own Remove', () => {
    const { store, seen } = renderComposer();
    fireEvent.change(screen.getByTestId('attach-input'), {
      target: { files: [image('a.png'), image('b.png')] },
    });
    expect(requestedNames(seen)).toEqual(['a.png', 'b.png']);
    expect(screen.getByRole('img', { name: 'a.png' }).getAttribute('src')).toMatch(/^blob:thumb-/);
    expect(screen.getByRole('img', { name: 'b.png' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel a.png' }));
    expect(store.getState().attachments?.uploads[A]?.map((u) => u.name)).toEqual(['b.png']);
    expect(screen.queryByRole('img', { name: 'a.png' })).toBeNull();
  });

  it('takes a pasted image (a screenshot) as a file, and leaves pasted text to the text box', () => {
    const { seen } = renderComposer();
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.paste(box, { clipboardData: { files: [image('image.png')], types: ['Files'] } });
    expect(requestedNames(seen)).toEqual([expect.stringMatching(/^pasted-.*-1\.png$/)]);
    fireEvent.paste(box, { clipboardData: { files: [], types: ['text/plain'] } });
    expect(requestedNames(seen)).toHaveLength(1);
  });

  it('takes files dropped on the composer', () => {
    const { seen } = renderComposer();
    const form = screen.getByRole('form', { name: 'Send a message' });
    const dataTransfer = { files: [image('x.png'), image('y.png')], types: ['Files'], dropEffect: 'none' };
    fireEvent.dragOver(form, { dataTransfer });
    expect(form.className).toContain('composer--dragging');
    fireEvent.drop(form, { dataTransfer });
    expect(requestedNames(seen)).toEqual(['x.png', 'y.png']);
    expect(form.className).not.toContain('composer--dragging');
  });

  it('refuses an eleventh file in words, and takes none of that choice', () => {
    const { seen } = renderComposer();
    const nine = Array.from({ length: 9 }, (_, i) => image(`p${i}.png`));
    fireEvent.change(screen.getByTestId('attach-input'), { target: { files: nine } });
    fireEvent.change(screen.getByTestId('attach-input'), {
      target: { files: [image('tenth.png'), image('eleventh.png')] },
    });
    expect(screen.getByRole('alert').textContent).toBe(ATTACHMENT_ACCESS_MESSAGES.tooMany);
    expect(requestedNames(seen)).toHaveLength(9);
  });

  it('refuses a choice with one file too large, naming it, and uploads none of it', () => {
    const { seen } = renderComposer();
    const big = image('big.png');
    Object.defineProperty(big, 'size', { value: ATTACHMENT_MAX_BYTES + 1 });
    fireEvent.change(screen.getByTestId('attach-input'), { target: { files: [image('ok.png'), big] } });
    expect(screen.getByRole('alert').textContent).toBe(`big.png: ${ATTACHMENT_MESSAGES.tooLarge}`);
    expect(requestedNames(seen)).toEqual([]);
  });

  it('sends all the ready files in one message, in the order chosen', () => {
    const { store } = renderComposer();
    fireEvent.change(screen.getByTestId('attach-input'), {
      target: { files: [image('a.png'), image('b.png')] },
    });
    const uploads = store.getState().attachments?.uploads[A] ?? [];
    const second = { ...photo, id: 'Attachment0000000002', name: 'b.png' };
    act(() => {
      store.dispatch(attachmentUploaded({ uploadId: uploads[0]?.uploadId ?? '', attachment: photo }));
      store.dispatch(attachmentUploaded({ uploadId: uploads[1]?.uploadId ?? '', attachment: second }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(selectOutboxEntries(store.getState())).toMatchObject([{ attachments: [photo, second] }]);
    expect(store.getState().attachments?.uploads[A]).toBeUndefined();
  });
});
