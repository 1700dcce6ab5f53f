// Profile pictures on Firebase: the bytes in Cloud Storage under photos/{uid}/{photoId} (storage.rules: the person
// alone writes there, an image of core/photos.ts's types up to 512 KB), then the object's download URL in
// users/{uid}.photoURL (firestore.rules: the person alone, a download URL of their own photos folder); functions/
// on_user_photo_changed copies it into each channel they are in (channels/{id}.photos), so every member's window
// shows the new face live through the channel it already follows. A face is shown by its download URL: anyone who
// shares a channel sees it, as on the embedded server, where its URL is an unguessable id too. The bytes are
// sniffed here first (file-type, loaded with Storage), so a refusal says what the embedded server says.
import { BackendError } from '../ports';
import type { UsersPort } from '../ports';
import { newDocumentId } from '@core/ids';
import type { UserDoc } from '@core/model';
import { checkPhoto, PHOTO_MAX_BYTES, PHOTO_MESSAGES } from '@core/photos';
import { guarded, toBackendError } from './errors';
import type { FirebaseSdk } from './sdk';

/** Where a person's picture lives in the bucket (storage.rules matches it). */
export function photoObjectPath(uid: string, photoId: string): string {
  return `photos/${uid}/${photoId}`;
}

async function sniff(bytes: Uint8Array): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import(/* webpackChunkName: "firebase-storage" */ 'file-type/core');
  return (await fileTypeFromBuffer(bytes))?.mime;
}

export function createPhotos(
  sdk: FirebaseSdk,
  getUser: (uid: string) => Promise<UserDoc | null>,
): Pick<UsersPort, 'setPhoto' | 'removePhoto'> {
  const own = (uid: string): void => {
    if (sdk.requireUid() !== uid) throw new BackendError('PERMISSION_DENIED', PHOTO_MESSAGES.notYours);
  };
  const reread = async (uid: string): Promise<UserDoc> => {
    const user = await getUser(uid);
    if (!user) throw new BackendError('NOT_FOUND', "That profile doesn't exist (any more).");
    return user;
  };
  /** The object behind a face's download URL, removed; one already gone (or not ours to remove) is left. */
  const removeObject = async (url: string | undefined): Promise<void> => {
    if (!url) return;
    const { sdk: storage, storage: bucket } = await sdk.storage();
    await storage.deleteObject(storage.ref(bucket, url)).catch(() => undefined);
  };

  return {
    setPhoto: (uid, picture) =>
      guarded(async () => {
        own(uid);
        // The size before the bytes are read: a huge file is refused without reading it.
        const early = checkPhoto({ size: picture.size, sniffedType: 'image/webp' });
        if (!early.ok) throw new BackendError('INVALID_ARGUMENT', PHOTO_MESSAGES[early.problem]);
        const bytes = new Uint8Array(await picture.arrayBuffer());
        const checked = checkPhoto({
          size: bytes.length,
          sniffedType: bytes.length <= PHOTO_MAX_BYTES ? await sniff(bytes) : undefined,
        });
        if (!checked.ok) throw new BackendError('INVALID_ARGUMENT', PHOTO_MESSAGES[checked.problem]);
        const before = (await getUser(uid))?.photoURL;
        const { sdk: storage, storage: bucket } = await sdk.storage();
        const ref = storage.ref(bucket, photoObjectPath(uid, newDocumentId()));
        await storage.uploadBytes(ref, bytes, {
          contentType: checked.contentType,
          // The URL is new with every picture, so browsers may keep it for good.
          cacheControl: 'public, max-age=31536000, immutable',
        });
        const photoURL = await storage.getDownloadURL(ref);
        const { sdk: fs, db } = await sdk.firestore();
        try {
          await fs.updateDoc(fs.doc(db, 'users', uid), { photoURL });
        } catch (error) {
          await storage.deleteObject(ref).catch(() => undefined);
          throw toBackendError(error);
        }
        await removeObject(before);
        return reread(uid);
      }),

    removePhoto: (uid) =>
      guarded(async () => {
        own(uid);
        const before = (await getUser(uid))?.photoURL;
        if (before) {
          const { sdk: fs, db } = await sdk.firestore();
          await fs.updateDoc(fs.doc(db, 'users', uid), { photoURL: fs.deleteField() });
          await removeObject(before);
        }
        return reread(uid);
      }),
  };
}
