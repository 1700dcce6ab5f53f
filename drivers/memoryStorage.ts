// The browser's Web Storage, in memory: what the push saga's tests and the push-token benchmark give the code
// where a page would give localStorage.
/** A Web Storage stand-in with the same string-only semantics. */
export class MemoryStorage {
  readonly data = new Map<string, string>();
  getItem(key: string): string | null {
    return this.data.has(key) ? (this.data.get(key) as string) : null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, String(value));
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
}
