// The port contract for profile pictures (core/photos.ts): both adapters set, replace and remove a person's own
// face, refuse a file that is not a picture and one over 512 KB in the same words, refuse another's, and carry the
// face into the person's channels and their member lists (on Firebase through functions/ on_user_photo_changed).
import type { Backend } from '@/backend/ports';
import { PHOTO_MAX_BYTES, PHOTO_MESSAGES } from '@core/photos';
import { htmlFile, pngFile, webpFile } from '../../drivers/sampleFiles';
import { failure } from './support/failure';
import type { Harness } from './support/harness';
import { CHANNELS, PEOPLE } from './support/world';

type Case = (title: string, test: () => Promise<void>) => void;

const blob = (bytes: Buffer, type = ''): Blob => new Blob([new Uint8Array(bytes)], { type });

export function describePhotoContract(harness: () => Harness, needingStorage: Case): void {
  describe('profile pictures (issue #23 part 4)', () => {
    const memberFace = async (backend: Backend): Promise<string | undefined> =>
      (await backend.channels.getChannel(CHANNELS.studio.id))?.photos?.[PEOPLE.member.uid];

    needingStorage(
      'sets, replaces and removes the person’s own picture, and their channels carry it',
      async () => {
        const h = harness();
        const member = await h.as('member');
        const consultant = await h.as('consultant');
        const first = await member.users.setPhoto(PEOPLE.member.uid, blob(webpFile(16, 16), 'image/webp'));
        expect(first.photoURL).toEqual(expect.any(String));
        await h.settle();
        expect(await memberFace(consultant)).toBe(first.photoURL);
        const members = await consultant.channels.listMembers(CHANNELS.studio.id);
        expect(members.find((m) => m.uid === PEOPLE.member.uid)?.photoURL).toBe(first.photoURL);

        const second = await member.users.setPhoto(PEOPLE.member.uid, blob(pngFile(16, 16)));
        expect(second.photoURL).not.toBe(first.photoURL);
        expect((await member.users.getUser(PEOPLE.member.uid))?.photoURL).toBe(second.photoURL);
        await h.settle();
        expect(await memberFace(consultant)).toBe(second.photoURL);

        const removed = await member.users.removePhoto(PEOPLE.member.uid);
        expect(removed.photoURL).toBeUndefined();
        await h.settle();
        expect(await memberFace(consultant)).toBeUndefined();
      },
    );

    needingStorage(
      'refuses a file that is not a picture, and one over 512 KB, in the same words',
      async () => {
        const member = await harness().as('member');
        await expect(
          failure(member.users.setPhoto(PEOPLE.member.uid, blob(htmlFile(), 'image/png'))),
        ).resolves.toMatchObject({
          status: 'INVALID_ARGUMENT',
          message: PHOTO_MESSAGES.notImage,
        });
        const huge = Buffer.concat([webpFile(8, 8), Buffer.alloc(PHOTO_MAX_BYTES)]);
        await expect(
          failure(member.users.setPhoto(PEOPLE.member.uid, blob(huge, 'image/webp'))),
        ).resolves.toMatchObject({
          status: 'INVALID_ARGUMENT',
          message: PHOTO_MESSAGES.tooLarge,
        });
        expect((await member.users.getUser(PEOPLE.member.uid))?.photoURL).toBeUndefined();
      },
    );

    needingStorage("refuses setting or removing someone else's picture", async () => {
      const member = await harness().as('member');
      await expect(
        failure(member.users.setPhoto(PEOPLE.consultant.uid, blob(webpFile(8, 8), 'image/webp'))),
      ).resolves.toMatchObject({ status: 'PERMISSION_DENIED', message: PHOTO_MESSAGES.notYours });
      await expect(failure(member.users.removePhoto(PEOPLE.consultant.uid))).resolves.toMatchObject({
        status: 'PERMISSION_DENIED',
      });
    });
  });
}
