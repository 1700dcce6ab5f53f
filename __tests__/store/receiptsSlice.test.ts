// Read receipts and typing in the store: a channel's receipts, who is typing (gone with their message, at expiry,
// or when the connection drops), and the person's choice of sharing receipts.
import { findNonSerializableValue } from '@reduxjs/toolkit';
import type { Receipt } from '@core/receipts';
import type { ChatMessage } from '@core/model';
import { messagesArrived } from '@/store/messages';
import reducer, {
  initialState,
  receiptSettingsFailed,
  receiptSettingsLoaded,
  receiptSettingsRequested,
  receiptSettingsSaved,
  receiptsLoaded,
  selectReceipts,
  selectReceiptSettings,
  selectTypingNames,
  typingExpired,
  typingCleared,
  typingSignalled,
} from '@/store/receiptsSlice';
import type { ReceiptsState } from '@/store/receiptsSlice';
import { signedOut } from '@/store/userSlice';

const CH = 'ChannelA000000000001';
const OTHER = 'ChannelB000000000001';
const dana: Receipt = {
  uid: 'dana',
  name: 'Dana',
  read: { createdAt: 5, id: 'x' },
  readAt: 9,
  delivered: null,
};
const at = (receipts: ReceiptsState) => ({ receipts });
const typing = (state: ReceiptsState, channelId = CH) => selectTypingNames(at(state), channelId);
const message = (senderId: string, channelId = CH): ChatMessage => ({
  id: 'Message0000000000001',
  channelId,
  senderId,
  senderName: senderId,
  text: 'hi',
  createdAt: 1,
});

describe('receipts selectors', () => {
  it('read the initial state until the slice is injected', () => {
    expect(selectReceipts({}, CH)).toEqual([]);
    expect(selectTypingNames({}, CH)).toEqual([]);
    expect(selectReceiptSettings({})).toEqual({ enabled: null, status: 'idle', error: null });
  });
});

describe('receipts reducer', () => {
  it("keeps each channel's receipts as they were last loaded", () => {
    const state = reducer(initialState, receiptsLoaded({ channelId: CH, receipts: [dana] }));
    expect(selectReceipts(at(state), CH)).toEqual([dana]);
    expect(selectReceipts(at(state), OTHER)).toEqual([]);
    expect(findNonSerializableValue(state)).toBe(false);
  });

  it('shows a typer until their signal expires', () => {
    let state = reducer(initialState, typingSignalled({ channelId: CH, uid: 'dana', name: 'Dana' }));
    state = reducer(state, typingSignalled({ channelId: CH, uid: 'sam', name: 'Sam' }));
    expect(typing(state)).toEqual(['Dana', 'Sam']);
    expect(typing(state, OTHER)).toEqual([]);
    state = reducer(state, typingExpired({ channelId: CH, uid: 'dana' }));
    expect(typing(state)).toEqual(['Sam']);
  });

  it('drops a typer whose message arrived in that channel, and nobody else', () => {
    let state = reducer(initialState, typingSignalled({ channelId: CH, uid: 'dana', name: 'Dana' }));
    state = reducer(state, typingSignalled({ channelId: OTHER, uid: 'dana', name: 'Dana' }));
    state = reducer(state, messagesArrived({ messages: [message('dana')], ownUid: 'me' }));
    expect(typing(state)).toEqual([]);
    expect(typing(state, OTHER)).toEqual(['Dana']);
  });

  it('forgets every typer when the connection drops', () => {
    let state = reducer(initialState, typingSignalled({ channelId: CH, uid: 'dana', name: 'Dana' }));
    state = reducer(state, typingCleared());
    expect(typing(state)).toEqual([]);
  });

  it('turns the switch at once, and back with the words when saving fails', () => {
    let state = reducer(initialState, receiptSettingsLoaded({ enabled: true }));
    state = reducer(state, receiptSettingsRequested({ enabled: false }));
    expect(selectReceiptSettings(at(state))).toEqual({ enabled: false, status: 'saving', error: null });
    state = reducer(state, receiptSettingsFailed({ enabled: true, message: 'You are offline.' }));
    expect(selectReceiptSettings(at(state))).toEqual({
      enabled: true,
      status: 'failed',
      error: 'You are offline.',
    });
  });

  it('forgets the receipts shown under the old choice once a new one is saved', () => {
    let state = reducer(initialState, receiptsLoaded({ channelId: CH, receipts: [dana] }));
    state = reducer(state, receiptSettingsSaved({ enabled: false }));
    expect(selectReceipts(at(state), CH)).toEqual([]);
    expect(selectReceiptSettings(at(state)).enabled).toBe(false);
  });

  it('starts over at sign-out', () => {
    const state = reducer(
      reducer(initialState, receiptsLoaded({ channelId: CH, receipts: [dana] })),
      signedOut(),
    );
    expect(state).toEqual(initialState);
  });
});
