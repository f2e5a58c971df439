/** Messages from a page to its engine worker (everything else travels through IndexedDB and the channel). */
export type WorkerCommand =
  /** Who is signed in: the engine works only on this person's downloads, with this session. */
  | { type: 'auth'; ownerId: string | null; token: string | null; deviceId: string }
  /** The person's preferences that change what the engine may do. */
  | { type: 'settings'; wifiOnly: boolean }
  /** Look at the records again now (a tap, back online, app visible). */
  | { type: 'kick' };
