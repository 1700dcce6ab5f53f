import reducer, {
  initialState,
  messageChangeErrorDismissed,
  messageChangeFailed,
  messageChangeSaved,
  messageDeleteRequested,
  messageEditClosed,
  messageEditOpened,
  messageEditRequested,
  selectIsEditing,
  selectMessageChange,
} from '@/features/conversation/messageActionsSlice';
import { signedOut } from '@/store/userSlice';

const A = 'chanA000000000000001';
const M1 = 'm1000000000000000001';
const M2 = 'm2000000000000000002';
const view = (state: typeof initialState) => ({ messageActions: state });

describe('messageActionsSlice', () => {
  it('opens one message for editing at a time', () => {
    let state = reducer(initialState, messageEditOpened({ channelId: A, messageId: M1 }));
    state = reducer(state, messageEditOpened({ channelId: A, messageId: M2 }));
    expect(selectIsEditing(view(state), M1)).toBe(false);
    expect(selectIsEditing(view(state), M2)).toBe(true);
    expect(selectIsEditing(view(reducer(state, messageEditClosed())), M2)).toBe(false);
  });

  it('closes the editor once its edit is saved, and forgets the request', () => {
    let state = reducer(initialState, messageEditOpened({ channelId: A, messageId: M1 }));
    state = reducer(state, messageEditRequested({ channelId: A, messageId: M1, text: 'New' }));
    expect(selectMessageChange(view(state), M1)).toEqual({ kind: 'edit', status: 'saving', error: null });
    state = reducer(state, messageChangeSaved({ messageId: M1 }));
    expect(selectIsEditing(view(state), M1)).toBe(false);
    expect(selectMessageChange(view(state), M1)).toBeUndefined();
  });

  it('keeps the editor open with the refusal in words when an edit fails', () => {
    let state = reducer(initialState, messageEditOpened({ channelId: A, messageId: M1 }));
    state = reducer(state, messageEditRequested({ channelId: A, messageId: M1, text: 'New' }));
    state = reducer(
      state,
      messageChangeFailed({
        messageId: M1,
        kind: 'edit',
        message: 'A message can only be edited in the first 24 hours.',
      }),
    );
    expect(selectIsEditing(view(state), M1)).toBe(true);
    expect(selectMessageChange(view(state), M1)).toEqual({
      kind: 'edit',
      status: 'failed',
      error: 'A message can only be edited in the first 24 hours.',
    });
    // Cancelling puts the refusal away with the editor.
    expect(selectMessageChange(view(reducer(state, messageEditClosed())), M1)).toBeUndefined();
  });

  it('follows a deletion until it is saved or refused, and puts a refusal away when dismissed', () => {
    let state = reducer(initialState, messageDeleteRequested({ channelId: A, messageId: M2 }));
    expect(selectMessageChange(view(state), M2)?.status).toBe('saving');
    state = reducer(
      state,
      messageChangeFailed({
        messageId: M2,
        kind: 'delete',
        message: 'You can only change your own messages.',
      }),
    );
    expect(selectMessageChange(view(state), M2)).toMatchObject({ kind: 'delete', status: 'failed' });
    expect(
      selectMessageChange(view(reducer(state, messageChangeErrorDismissed({ messageId: M2 }))), M2),
    ).toBeUndefined();
  });

  it('forgets everything at sign-out', () => {
    let state = reducer(initialState, messageEditOpened({ channelId: A, messageId: M1 }));
    state = reducer(state, messageDeleteRequested({ channelId: A, messageId: M2 }));
    expect(reducer(state, signedOut())).toEqual(initialState);
  });
});
