import reducer, {
  initialState,
  quoteJumpFinished,
  quoteJumpRequested,
  quoteJumpSettled,
  quoteJumpUnreached,
  reactionErrorDismissed,
  reactionFailed,
  reactionRequested,
  replyCancelled,
  replyStarted,
  selectQuoteJump,
  selectReactionError,
  selectReplyingTo,
} from '@/features/conversation/repliesSlice';
import { messageSendRequested } from '@/store/outboxSlice';
import { signedOut } from '@/store/userSlice';

const A = 'chanA000000000000001';
const B = 'chanB000000000000001';
const M1 = 'm1000000000000000001';
const quote = { id: M1, senderId: 'dana', senderName: 'Dana', snippet: 'Hello' };
const view = (state: typeof initialState) => ({ replies: state });

describe('repliesSlice', () => {
  it('keeps the reply of each channel’s composer apart, until it is cancelled', () => {
    let state = reducer(initialState, replyStarted({ channelId: A, quote }));
    expect(selectReplyingTo(view(state), A)).toStrictEqual(quote);
    expect(selectReplyingTo(view(state), B)).toBeUndefined();
    state = reducer(state, replyCancelled({ channelId: A }));
    expect(selectReplyingTo(view(state), A)).toBeUndefined();
  });

  it('lets the reply go with the message sent in its channel only', () => {
    let state = reducer(initialState, replyStarted({ channelId: A, quote }));
    state = reducer(state, replyStarted({ channelId: B, quote }));
    state = reducer(state, messageSendRequested({ channelId: A, text: 'Hi', replyTo: quote }));
    expect(selectReplyingTo(view(state), A)).toBeUndefined();
    expect(selectReplyingTo(view(state), B)).toStrictEqual(quote);
  });

  it('follows a jump from seeking to found or missing, and ignores the end of an older jump', () => {
    let state = reducer(initialState, quoteJumpRequested({ channelId: A, messageId: M1 }));
    expect(selectQuoteJump(view(state))).toStrictEqual({ channelId: A, messageId: M1, status: 'seeking' });
    expect(
      selectQuoteJump(view(reducer(state, quoteJumpSettled({ messageId: 'other', found: true })))),
    ).toMatchObject({ status: 'seeking' });
    state = reducer(state, quoteJumpSettled({ messageId: M1, found: false }));
    expect(selectQuoteJump(view(state))?.status).toBe('missing');
    expect(selectQuoteJump(view(reducer(state, quoteJumpFinished())))).toBeNull();
  });

  it('marks a found original the list could not draw as unreached, and only that jump', () => {
    const seeking = reducer(initialState, quoteJumpRequested({ channelId: A, messageId: M1 }));
    // Only a found original can be unreached: one still sought, or another message's jump, stays as it was.
    expect(selectQuoteJump(view(reducer(seeking, quoteJumpUnreached({ messageId: M1 }))))?.status).toBe(
      'seeking',
    );
    const found = reducer(seeking, quoteJumpSettled({ messageId: M1, found: true }));
    expect(selectQuoteJump(view(reducer(found, quoteJumpUnreached({ messageId: 'other' }))))?.status).toBe(
      'found',
    );
    const unreached = reducer(found, quoteJumpUnreached({ messageId: M1 }));
    expect(selectQuoteJump(view(unreached))).toStrictEqual({
      channelId: A,
      messageId: M1,
      status: 'unreached',
    });
    // Pressing the quote again starts a new jump.
    expect(
      selectQuoteJump(view(reducer(unreached, quoteJumpRequested({ channelId: A, messageId: M1 }))))?.status,
    ).toBe('seeking');
  });

  it('keeps a refused reaction’s words until dismissed or tried again', () => {
    let state = reducer(initialState, reactionFailed({ messageId: M1, message: 'No.' }));
    expect(selectReactionError(view(state), M1)).toBe('No.');
    expect(
      selectReactionError(
        view(reducer(state, reactionRequested({ channelId: A, messageId: M1, emoji: '👍' }))),
        M1,
      ),
    ).toBeUndefined();
    state = reducer(state, reactionErrorDismissed({ messageId: M1 }));
    expect(selectReactionError(view(state), M1)).toBeUndefined();
  });

  it('forgets everything on sign-out', () => {
    const state = reducer(initialState, replyStarted({ channelId: A, quote }));
    expect(reducer(state, signedOut())).toStrictEqual(initialState);
  });
});
