// on_user_photo_changed, wrapped with firebase-functions-test (offline) over the real Firestore repository on the
// memory store: a person's new or removed picture reaches each channel they are in (channels/{id}.photos), and
// no other channel; a change of anything else, or a URL that is not a face, writes nothing.
import { logger } from 'firebase-functions';
import { functionsTest } from './support/functionsTest';
import type { TestBackend } from './support/functionsTest';
import { CHANNEL, UID, seededBackend } from './support/world';

let backend: TestBackend;
beforeEach(() => {
  backend = seededBackend();
  jest.spyOn(logger, 'info').mockImplementation(() => undefined);
});
afterAll(() => functionsTest.cleanup());

const face = (uid: string, id = 'AbCdEfGhIjKlMnOpQrSt') =>
  `https://firebasestorage.googleapis.com/v0/b/qupm.appspot.com/o/photos%2F${uid}%2F${id}?alt=media&token=t`;

/** on_user_photo_changed for one write of users/{uid}, from `before` to `after` (the document is not written). */
const trigger = (uid: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
  functionsTest.wrap(backend.fns.on_user_photo_changed)({
    // The rest of the document stays (a document with no field at all reads as none to the test wrapper).
    data: { before: { email: 'x@qupm.test', ...before }, after: { email: 'x@qupm.test', ...after } },
    params: { uid },
  } as never);

/** A write of users/{uid}'s picture (none when `after` has none) and then its trigger, as Firestore fires it. */
const change = async (uid: string, before: Record<string, unknown>, after: Record<string, unknown>) => {
  const { photoURL: _old, ...rest } = backend.store.get(`users/${uid}`) ?? {};
  backend.store.set(`users/${uid}`, { ...rest, ...after });
  await trigger(uid, before, after);
};

const photosOf = (channelId: string) => backend.store.get(`channels/${channelId}`)?.photos;

describe('on_user_photo_changed', () => {
  it("carries a member's new picture into their channel, beside the others there", async () => {
    await change(UID.consultant, {}, { photoURL: face(UID.consultant) });
    await change(UID.member, {}, { photoURL: face(UID.member) });
    expect(photosOf(CHANNEL)).toEqual({
      [UID.consultant]: face(UID.consultant),
      [UID.member]: face(UID.member),
    });
  });

  it('takes a removed picture out, leaving the others', async () => {
    await change(UID.consultant, {}, { photoURL: face(UID.consultant) });
    await change(UID.member, {}, { photoURL: face(UID.member) });
    await change(UID.member, { photoURL: face(UID.member) }, {});
    expect(photosOf(CHANNEL)).toEqual({ [UID.consultant]: face(UID.consultant) });
  });

  it('after two quick changes whose triggers run in the other order, shows the picture the person has now', async () => {
    const first = face(UID.member, 'FirstFaceAbcdefghij1');
    const second = face(UID.member, 'SecondFaceAbcdefghi2');
    const { photoURL: _none, ...member } = backend.store.get(`users/${UID.member}`) ?? {};
    backend.store.set(`users/${UID.member}`, { ...member, photoURL: second });
    await trigger(UID.member, { photoURL: first }, { photoURL: second });
    await trigger(UID.member, {}, { photoURL: first });
    expect(photosOf(CHANNEL)).toEqual({ [UID.member]: second });
  });

  it('writes no channel the person is not in, and nothing for a change of another field or a URL that is no face', async () => {
    await change(UID.stranger, {}, { photoURL: face(UID.stranger) });
    await change(UID.member, { nickname: 'a' }, { nickname: 'b' });
    await change(UID.member, {}, { photoURL: 'javascript:alert(1)' });
    expect(photosOf(CHANNEL)).toBeUndefined();
  });
});
