// The channel the conversation screens' tests open: Strategy Studio, owned by one consultant. A test names what it
// needs different (its members, its description) and keeps the rest.
import type { Channel } from '@core/model';

export const STUDIO_ID = 'chanA000000000000001';
export const STUDIO_OWNER = 'uidOwner000000000001';

export const studioChannel = (overrides: Partial<Channel> = {}): Channel => ({
  id: STUDIO_ID,
  channelId: 'strategy',
  ownerId: STUDIO_OWNER,
  title: 'Strategy Studio',
  description: 'Plans',
  members: [],
  createdAt: 1,
  ...overrides,
});
