// The browser's edge for a file the app makes itself ("Download my data"): the browser saves
// `text` under `name`, as a download link clicked, and the object URL is let go once the click has been handled.
export function saveTextFile(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on a later turn: some browsers read the URL only after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
