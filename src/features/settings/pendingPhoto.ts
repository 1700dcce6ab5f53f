// The picture the person chose, cropped and scaled, waiting for its upload. A Blob is not serializable, so it never
// enters the store: the screen holds it here under an id and the photo saga takes it out. Memory only.
import { newDocumentId } from '@core/ids';

const pictures = new Map<string, Blob>();

/** Keeps `picture` under a new id, answered. */
export function holdPicture(picture: Blob): string {
  const id = newDocumentId();
  pictures.set(id, picture);
  return id;
}

/** The picture held under `id`, removed from here (undefined when there is none). */
export function takePicture(id: string): Blob | undefined {
  const picture = pictures.get(id);
  pictures.delete(id);
  return picture;
}
