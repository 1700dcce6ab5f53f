// Faces in a conversation: the people's pictures as the open channel carries them (Channel.photos, kept live by the
// channel's own changes), and whether bubbles show them (a channel of several people; a private consultation has
// one other person, whose face is in the header).
import { isPrivateChannel } from '@core/privateChannels';
import type { RootState } from '@/store/reducer';

const NO_PHOTOS: Record<string, string> = {};

export const selectChannelPhotos = (
  state: Pick<RootState, 'channels'>,
  channelId: string,
): Record<string, string> => state.channels.entities[channelId]?.channel.photos ?? NO_PHOTOS;

/** Whether others' bubbles show their face: in a channel, not in a private consultation. */
export const selectShowsFaces = (state: Pick<RootState, 'channels'>, channelId: string): boolean => {
  const channel = state.channels.entities[channelId]?.channel;
  return channel !== undefined && !isPrivateChannel(channel);
};
