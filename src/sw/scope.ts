// The parts of the service worker's global scope the worker modules use, as plain structural types: the worker
// passes `self`, and the Jest tests pass a stand-in of the same shape (the modules compile under both the DOM and
// the WebWorker libraries, so the page's tests can import them).

export interface WindowClientLike {
  readonly url: string;
  /** The window has focus (for an open app: the one the person is looking at). */
  readonly focused: boolean;
  readonly visibilityState: string;
  postMessage(message: unknown): void;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

export interface NotificationLike {
  readonly tag: string;
  readonly data: unknown;
  close(): void;
}

export interface WorkerScope {
  readonly location: { readonly origin: string };
  readonly navigator: {
    readonly userAgent: string;
    setAppBadge?: (count?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  readonly registration: {
    showNotification(title: string, options?: NotificationOptions): Promise<void>;
    getNotifications(filter?: { tag?: string }): Promise<readonly NotificationLike[]>;
  };
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  readonly caches: Pick<CacheStorage, 'open'>;
}
