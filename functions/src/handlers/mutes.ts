// Muting a channel on the Firebase backend: the mute_channel and unmute_channel callables, the
// one writer of users/{uid}/channelPrefs (firestore.rules let its owner read it, nobody write it), decided by
// core/mutes.ts exactly as the embedded server's services/mutes.ts does: a known duration, a channel that
// exists, the caller in it; the end is computed with the functions' clock. Nothing is written for a refusal.
import { CHANNEL_MESSAGES } from '../../../core/channels';
import { QupmError } from '../../../core/errors';
import type { ChannelMute } from '../../../core/model';
import { assertCanMute, assertMuteDuration, muteEndsAt } from '../../../core/mutes';
import type { Caller } from '../../../core/permissions';
import type { MuteCallableName, muteCallablePayloads } from '../../../core/schemas';
import type { Handler } from '../callable';
import type { Deps } from '../repository';

interface MuteResults {
  mute_channel: ChannelMute;
  unmute_channel: { success: true };
}

async function assertMayMute(deps: Deps, caller: Caller, channelId: string): Promise<void> {
  const channel = await deps.repo.getChannel(channelId);
  if (!channel) throw new QupmError('NOT_FOUND', CHANNEL_MESSAGES.noSuchChannel);
  assertCanMute(channel, caller.uid);
}

export const muteCallables: {
  [N in MuteCallableName]: Handler<(typeof muteCallablePayloads)[N], MuteResults[N]>;
} = {
  async mute_channel(deps, caller, { channelId, duration }) {
    const chosen = assertMuteDuration(duration);
    await assertMayMute(deps, caller, channelId);
    const mutedUntil = muteEndsAt(chosen, deps.now());
    await deps.repo.setMute(caller.uid, channelId, mutedUntil);
    return { channelId, mutedUntil };
  },

  async unmute_channel(deps, caller, { channelId }) {
    await assertMayMute(deps, caller, channelId);
    await deps.repo.setMute(caller.uid, channelId, null);
    return { success: true };
  },
};
