// on_user_renamed, wrapped with firebase-functions-test (offline) over the real Firestore repository on the
// memory store: a person's new public name reaches the private consultations they are one of the two of
// (channels/{id}.names and title), and no other channel, and the bookings they are the client or the consultant
// of; a change of anything else writes nothing.
import { logger } from 'firebase-functions';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { putChannel } from './support/seed';
import { CHANNEL, NOW, UID, seededBackend } from './support/world';

const PRIVATE = 'PrivateChannel000001';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
  putChannel(backend.store, {
    id: PRIVATE,
    channelId: `private-${PRIVATE.toLowerCase()}`,
    ownerId: UID.consultant,
    title: 'Dana and Morgan Reyes',
    members: [UID.member],
    kind: 'private',
    names: { [UID.consultant]: 'Dana', [UID.member]: 'Morgan Reyes' },
    createdAt: NOW,
  });
  jest.spyOn(logger, 'info').mockImplementation(() => undefined);
});
afterAll(() => functionsTest.cleanup());

const change = (uid: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
  functionsTest.wrap(backend.fns.on_user_renamed)({
    data: {
      before: { email: 'morgan@example.com', ...before },
      after: { email: 'morgan@example.com', ...after },
    },
    params: { uid },
  } as never);

const channel = (id: string) => backend.store.get(`channels/${id}`);

describe('on_user_renamed', () => {
  it('names the person anew in their private consultation, for the other one and for admins', async () => {
    await change(
      UID.member,
      { displayName: 'Morgan Reyes' },
      { displayName: 'Morgan Reyes', nickname: 'Mo' },
    );
    expect(channel(PRIVATE)).toMatchObject({
      names: { [UID.consultant]: 'Dana', [UID.member]: 'Mo' },
      title: 'Dana and Mo',
    });
  });

  it('leaves ordinary channels alone, and writes nothing when the name stays the same', async () => {
    const studio = channel(CHANNEL);
    await change(UID.member, { displayName: 'Morgan Reyes' }, { displayName: 'Morgan Reyes', credits: 3 });
    expect(channel(PRIVATE)?.title).toBe('Dana and Morgan Reyes');
    await change(UID.member, { displayName: 'Morgan Reyes' }, { displayName: 'Morgan R.' });
    expect(channel(CHANNEL)).toEqual(studio);
  });

  it('names the person anew on their bookings, as client and as consultant, and on no one else’s', async () => {
    const booking = (id: string, clientId: string, consultantId: string) =>
      backend.store.set(`bookings/${id}`, {
        clientId,
        consultantId,
        clientName: 'Morgan Reyes',
        consultantName: 'Dana',
        state: 'requested',
      });
    booking('BookingAsClient00001', UID.member, UID.consultant);
    booking('BookingOfOthers00001', UID.stranger, UID.consultant);
    await change(
      UID.member,
      { displayName: 'Morgan Reyes' },
      { displayName: 'Morgan Reyes', nickname: 'Mo' },
    );
    expect(backend.store.get('bookings/BookingAsClient00001')).toMatchObject({
      clientName: 'Mo',
      consultantName: 'Dana',
    });
    expect(backend.store.get('bookings/BookingOfOthers00001')).toMatchObject({ clientName: 'Morgan Reyes' });

    await change(UID.consultant, { nickname: 'Dana' }, { nickname: 'Dana W.' });
    expect(backend.store.get('bookings/BookingAsClient00001')).toMatchObject({
      clientName: 'Mo',
      consultantName: 'Dana W.',
    });
    expect(backend.store.get('bookings/BookingOfOthers00001')).toMatchObject({ consultantName: 'Dana W.' });
  });

  it('writes no private consultation the person is not in', async () => {
    await change(UID.stranger, { displayName: 'Sam Patel' }, { displayName: 'Sammy' });
    expect(channel(PRIVATE)?.names).toEqual({ [UID.consultant]: 'Dana', [UID.member]: 'Morgan Reyes' });
  });
});
