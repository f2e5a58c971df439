/**
 * What each feature offers the others: the files another feature may import (paths inside the feature folder).
 * Everything else in a feature folder is private to it (eslint/feature-boundaries.js). Adding a file here is a
 * decision that it is shared: keep these lists short.
 */
export const featureSurfaces = {
  api: {
    auth: [
      'accounts.ts',
      'client-ip.ts',
      'one-time-codes.ts',
      'parental-status.ts',
      'passwords.ts',
      'profile.ts',
      'sessions.ts',
      'tokens.ts',
    ],
    catalog: ['admin-movies.ts', 'catalogue.ts'],
    'content-keys': ['content-keys.ts', 'film-encryption.ts'],
    downloads: ['received.ts', 'redownloads.ts'],
    'film-transfer': ['manifests.ts'],
    licences: ['device-key.ts', 'issue.ts', 'signing.ts'],
    mail: ['mailer.ts', 'texts.ts'],
    metrics: ['jobs.ts', 'registry.ts', 'routes.ts'],
    'night-bundle': ['accounting.ts'],
    movies: ['entitlement.ts', 'files.ts', 'movie.ts', 'redownload-allowance.ts', 'subtitle-summaries.ts'],
    plans: ['plan-movies.ts', 'plans.ts', 'subscription.ts'],
    posters: ['make.ts', 'srcset.ts'],
    push: ['outbox.ts', 'texts.ts'],
    'rate-limit': ['limiter.ts', 'limits.ts', 'wait-phrase.ts'],
    'sealed-keys': ['crypto.ts', 'phones.ts'],
    settings: ['plan-sale.ts', 'sms-budget.ts'],
    sms: ['adapter.ts', 'budget.ts', 'outbox.ts', 'protocol.ts', 'simulator.ts', 'texts.ts'],
    storage: ['file-signatures.ts', 'key-locks.ts', 'storage.ts'],
    transcode: ['hub.ts', 'jobs.ts', 'on-save.ts', 'retry.ts'],
  },
  pwa: {
    // One-way order (docs/decisions/0220-pwa-feature-order.md): push, parental-pin, watching and movie import no
    // feature; payments only push; downloads those leaves; catalog, profile, dashboard and auth compose them.
    downloads: [
      'ContinueWatching.tsx',
      'DownloadButton.tsx',
      'DownloadFacts.tsx',
      'actions.ts',
      'components/RedownloadDialog.tsx',
      'engine/record.ts',
      'hooks.ts',
      'sizes.ts',
      'travel.ts',
    ],
    licences: ['film-key.ts', 'store.ts', 'unlock.ts'],
    movie: ['MovieThumbnail.tsx', 'format.ts', 'library-url.ts', 'messages.ts', 'queries.ts'],
    'parental-pin': ['HiddenByPinNotice.tsx', 'ParentalPinCard.tsx', 'PinLockNote.tsx', 'PlayPinGate.tsx'],
    payments: ['PaymentHistoryList.tsx', 'WaitingPaymentCard.tsx', 'queries.ts'],
    profile: ['ConfirmPhone.tsx', 'ConfirmPhoneNotice.tsx', 'PlanTimeLeft.tsx', 'access.ts'],
    push: ['NotificationsCard.tsx', 'PushPrompt.tsx', 'push-client.ts'],
    watching: [
      'WatchNote.tsx',
      'hooks.ts',
      'player/VideoPlayer.tsx',
      'player/subtitle-track.ts',
      'positions.ts',
      'store.ts',
    ],
  },
};
