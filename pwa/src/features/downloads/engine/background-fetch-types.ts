/**
 * The parts of the Background Fetch API (WICG, Chrome/Edge only) Filamu uses; TypeScript's DOM library does not
 * describe it.
 */
export interface BackgroundFetchRegistration extends EventTarget {
  readonly id: string;
  readonly downloadTotal: number;
  readonly downloaded: number;
  readonly result: '' | 'success' | 'failure';
  readonly failureReason: string;
  abort(): Promise<boolean>;
  matchAll(): Promise<Array<{ request: Request; responseReady: Promise<Response> }>>;
}

interface BackgroundFetchManager {
  fetch(
    id: string,
    requests: Request[],
    options?: {
      title?: string;
      icons?: Array<{ src: string; sizes?: string; type?: string }>;
      downloadTotal?: number;
    },
  ): Promise<BackgroundFetchRegistration>;
  get(id: string): Promise<BackgroundFetchRegistration | undefined>;
  getIds(): Promise<string[]>;
}

export interface BackgroundFetchEvent extends ExtendableEvent {
  readonly registration: BackgroundFetchRegistration;
}

export interface BackgroundFetchUpdateUIEvent extends BackgroundFetchEvent {
  updateUI(options: { title?: string }): Promise<void>;
}

export type WithBackgroundFetch = ServiceWorkerRegistration & { backgroundFetch?: BackgroundFetchManager };

/** Background Fetch ids are `filamu:<record key>`. */
const BACKGROUND_ID_PREFIX = 'filamu:';

export function backgroundIdOf(key: string): string {
  return `${BACKGROUND_ID_PREFIX}${key}`;
}

export function keyOfBackgroundId(id: string): string | null {
  return id.startsWith(BACKGROUND_ID_PREFIX) ? id.slice(BACKGROUND_ID_PREFIX.length) : null;
}
