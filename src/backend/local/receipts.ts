// Read receipts and typing on the embedded server (core/wire.ts listReceipts, markDelivered, sendTyping, the
// settings routes; `receipt` and `typing` stream events). A channel's receipts are read when followed and again on
// every (re)open of the stream, which keeps no replay; each `receipt` event then moves one person's marks.
import { safeParse } from 'zod/mini';
import { receiptAnswer } from '@core/answers';
import type { Receipt } from '@core/receipts';
import type { JsonRouteName, RouteAnswer } from '@core/wire';
import type { RouteCall } from './http';
import type { LiveStream } from './stream';
import type { ReceiptsPort, TypingPort } from '../ports';

type Call = <K extends JsonRouteName>(name: K, input: RouteCall<K>) => Promise<RouteAnswer<K>>;

export function createLocalReceipts(call: Call, stream: LiveStream): ReceiptsPort {
  const listReceipts = async (channelId: string): Promise<Receipt[]> =>
    (await call('listReceipts', { params: { id: channelId } })).receipts;
  return {
    listReceipts,
    subscribeReceipts(channelId, listener) {
      const byUid = new Map<string, Receipt>();
      // A read answered after a newer event is stale and dropped (`seen` moved on); the next open reads again.
      let seen = 0;
      let stopped = false;
      const emit = () => listener([...byUid.values()]);
      const read = async (): Promise<void> => {
        const asked = seen;
        try {
          const receipts = await listReceipts(channelId);
          if (stopped || seen !== asked) return;
          byUid.clear();
          for (const receipt of receipts) byUid.set(receipt.uid, receipt);
          emit();
        } catch {
          // Offline, signed out, or no longer in the channel: the next open reads again.
        }
      };
      const stopEvents = stream.subscribe((event) => {
        if (event.type !== 'receipt' || event.data.channelId !== channelId) return;
        seen += 1;
        const { uid, receipt } = event.data;
        if (receipt === null) byUid.delete(uid);
        else {
          const parsed = safeParse(receiptAnswer, receipt);
          if (!parsed.success || parsed.data.uid !== uid) return void read();
          byUid.set(uid, parsed.data);
        }
        emit();
      });
      const stopOpens = stream.onOpen(() => void read());
      void read();
      return () => {
        stopped = true;
        stopOpens();
        stopEvents();
      };
    },
    async markDelivered(channelId, upTo) {
      await call('markDelivered', { params: { id: channelId }, body: { messageId: upTo } });
    },
    getSettings: () => call('getReceiptSettings', {}),
    setSettings: (settings) => call('setReceiptSettings', { body: settings }),
  };
}

export function createLocalTyping(call: Call, stream: LiveStream): TypingPort {
  return {
    async sendTyping(channelId) {
      await call('sendTyping', { params: { id: channelId } });
    },
    subscribeTyping(channelId, listener) {
      return stream.subscribe((event) => {
        if (event.type !== 'typing' || event.data.channelId !== channelId) return;
        const { uid, name } = event.data;
        if (typeof uid === 'string' && typeof name === 'string') listener({ uid, name });
      });
    },
  };
}
