// Files the person picked, waiting for their upload. A File is not serializable, so it never
// enters the store: the composer holds it here under an id, puts only the id, name and size in the store, and the
// attachments saga takes it out when it uploads it. Memory only: a reload forgets a file not uploaded yet.
import { newDocumentId } from '@core/ids';

const files = new Map<string, Blob>();

/** Keeps `file` under a new id, answered. */
export function holdFile(file: Blob): string {
  const id = newDocumentId();
  files.set(id, file);
  return id;
}

/** The file held under `id`, removed from here (undefined when there is none). */
export function takeFile(id: string): Blob | undefined {
  const file = files.get(id);
  files.delete(id);
  return file;
}
