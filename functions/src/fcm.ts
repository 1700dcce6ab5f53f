// The PushSender on FCM through the Admin SDK: sendEach, in FCM's batches of at most 500 messages.
import type { Messaging } from 'firebase-admin/messaging';
import type { FcmMessage, PushSender, SendResult } from './repository';

const FCM_BATCH_LIMIT = 500;

export function createFcmSender(messaging: Pick<Messaging, 'sendEach'>): PushSender {
  return {
    async send(messages: readonly FcmMessage[]): Promise<SendResult[]> {
      const results: SendResult[] = [];
      for (let i = 0; i < messages.length; i += FCM_BATCH_LIMIT) {
        const { responses } = await messaging.sendEach(messages.slice(i, i + FCM_BATCH_LIMIT));
        for (const response of responses) {
          results.push(
            response.success
              ? { success: true }
              : { success: false, errorCode: response.error?.code ?? 'unknown' },
          );
        }
      }
      return results;
    },
  };
}
