/**
 * Every name the app keeps data or takes a lock under on the phone, in one place: two features must never pick the
 * same one, and renaming one here loses what phones saved under the old name (keep the old name, or migrate).
 */
export const DATABASES = {
  downloads: 'filamu-downloads',
  uploads: 'filamu-uploads',
  watching: 'filamu-watching',
  parentalPin: 'filamu-parental-pin',
  licences: 'filamu-licences',
  /** Sealed film keys and the films unlocked with them, by USSD with no data (decision 0249). */
  sealedKeys: 'filamu-sealed-keys',
} as const;

/** BroadcastChannel names (tabs and the download worker tell each other about changes). */
export const CHANNELS = { downloads: 'filamu-downloads' } as const;

/** Web Locks: one download engine per browser, one worker per download and per upload across tabs. */
export const LOCKS = {
  downloadEngine: 'filamu-download-engine',
  download: (recordKey: string) => `filamu-download:${recordKey}`,
  upload: (uploadId: string) => `filamu-upload-${uploadId}`,
} as const;

/** localStorage keys. */
export const STORAGE_KEYS = {
  session: 'filamu.session',
  /** The language chosen on this phone, `en` or `lg` (decision 0258); absent, the browser's languages decide. */
  language: 'filamu.language',
  /** Whose films a signed-out phone keeps showing (decision 0233): the last person signed in on it. */
  keptOwner: 'filamu.keptOwner',
  deviceId: 'filamu.deviceId',
  /** The server's public key for film manifests (decision 0243): a film file received offline is checked with it. */
  signingKey: 'filamu.signingKey',
  /** Films half received from another phone (decision 0250): how much of each is checked and kept, to go on from. */
  receiving: 'filamu.receiving',
  payment: 'filamu.payment',
  push: 'filamu.push',
  lastLibrary: 'filamu:last-library',
  downloadSpeed: 'filamu.downloadSpeedBps',
  backgroundDownloads: 'filamu.backgroundDownloads',
  wifiOnlyDownloads: 'filamu.wifiOnlyDownloads',
  deleteAfterWatching: 'filamu.deleteAfterWatching',
  defaultDownloadSize: 'filamu.defaultDownloadSize',
  lastPickedDownloadSize: 'filamu.lastPickedDownloadSize',
  bundlePricePerGb: 'filamu.bundlePricePerGb',
  /** "Small files" (decision 0252): `every-phone` keeps to the H.264 Small; absent, the smallest this phone plays. */
  smallFiles: 'filamu.smallFiles',
  playerVolume: 'filamu.player.volume',
  playerMuted: 'filamu.player.muted',
  playerRate: 'filamu.player.rate',
  playerSubtitles: 'filamu.player.subtitles',
  /** Night mode's state (issue 21/22): which night it waits for or runs, kept across a reload. */
  nightMode: 'filamu.nightMode',
} as const;
