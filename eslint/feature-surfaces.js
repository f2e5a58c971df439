/**
 * What each feature offers the others: the files another feature may import (paths inside the feature folder).
 * Everything else in a feature folder is private to it (eslint/feature-boundaries.js). Adding a file here is a
 * decision that it is shared: keep these lists short.
 */
export const featureSurfaces = {
  api: {
    auth: ['accounts.ts', 'client-ip.ts', 'passwords.ts', 'principal.ts', 'profile.ts', 'sessions.ts', 'tokens.ts'],
    catalog: ['admin-movies.ts', 'catalogue.ts'],
    downloads: ['entitlement.ts', 'files.ts', 'records.ts', 'redownloads.ts', 'stale.ts'],
    mail: ['mailer.ts'],
    metrics: ['jobs.ts', 'registry.ts', 'routes.ts'],
    'parental-pin': ['status.ts'],
    payments: ['gateway.ts'],
    plans: ['plan-movies.ts', 'plans.ts', 'subscription.ts'],
    posters: ['make.ts', 'srcset.ts'],
    push: ['outbox.ts'],
    'rate-limit': ['limiter.ts', 'limits.ts', 'wait-phrase.ts'],
    reminders: ['channels.ts'],
    settings: ['plan-sale.ts'],
    sms: ['adapter.ts', 'outbox.ts', 'simulator.ts', 'texts.ts'],
    storage: ['file-signatures.ts', 'key-locks.ts', 'local-files.ts', 'local.ts', 'storage.ts'],
    subtitles: ['summaries.ts'],
    transcode: ['hub.ts', 'jobs.ts', 'on-save.ts', 'retry.ts'],
  },
  pwa: {
    catalog: ['MovieThumbnail.tsx', 'queries.ts'],
    downloads: [
      'actions.ts',
      'components/RedownloadDialog.tsx',
      'components/SizeChoiceDialog.tsx',
      'describe.ts',
      'engine/record.ts',
      'estimates.ts',
      'hooks.ts',
      'manager.ts',
      'movie-action.ts',
      'owner.ts',
      'settings.ts',
      'sizes.ts',
      'speed-memory.ts',
    ],
    'parental-pin': ['HiddenByPinNotice.tsx', 'ParentalPinCard.tsx', 'PinLockNote.tsx', 'PlayPinGate.tsx'],
    payments: ['PaymentHistoryList.tsx', 'WaitingPaymentCard.tsx', 'queries.ts'],
    profile: ['access.ts'],
    push: ['NotificationsCard.tsx', 'PushPrompt.tsx', 'push-client.ts'],
    watching: [
      'ContinueWatching.tsx',
      'WatchNote.tsx',
      'hooks.ts',
      'player/VideoPlayer.tsx',
      'player/subtitle-track.ts',
    ],
  },
};
