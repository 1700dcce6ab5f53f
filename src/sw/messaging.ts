// Messaging in the worker: a page turns it on with ENABLE_MESSAGING (spec §7) and is answered with
// MESSAGING_ENABLED carrying the same eventId. Success means this worker can receive pushes (it has a
// PushManager). Push delivery does not depend on the flag: the browser stops an idle worker within seconds and
// the flag would be gone, so every open window gets PUSH_MSG whatever it says (docs/decisions/push.md).
import type { EnableMessagingMessage, MessagingEnabledMessage } from '../protocol/messages';

export interface MessagingState {
  enabled: boolean;
}

export function createMessagingState(): MessagingState {
  return { enabled: false };
}

/** Handles ENABLE_MESSAGING: turns messaging on where push works and answers with the same eventId. */
export function enableMessaging(
  state: MessagingState,
  message: EnableMessagingMessage,
  pushSupported: boolean,
): MessagingEnabledMessage {
  if (pushSupported) state.enabled = true;
  return { type: 'MESSAGING_ENABLED', success: pushSupported, eventId: message.eventId };
}
