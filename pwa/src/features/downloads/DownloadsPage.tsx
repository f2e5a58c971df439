import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { DownloadIcon, FilmIcon } from '../../components/ui/icons.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { DataUsedCard } from './components/DataUsedCard.tsx';
import { DownloadItem } from './components/DownloadItem.tsx';
import { DownloadSettingsCard } from './components/DownloadSettingsCard.tsx';
import { OpenFilmFile } from './components/OpenFilmFile.tsx';
import { PhoneToPhoneCard } from './components/PhoneToPhoneCard.tsx';
import { StorageSummary } from './components/StorageSummary.tsx';
import { TonightCard } from './tonight/TonightCard.tsx';
import { displayOrder } from './describe.ts';
import { useLocalDownloads } from './hooks.ts';
import { useDownloadsStore } from './manager.ts';
import { useSignedOutOwner } from '../../lib/owner.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { useDownloadsT } from './messages.ts';
import { PushPrompt } from '../push/PushPrompt.tsx';

/** /downloads: every download on this phone, from IndexedDB — works without a connection. */
export default function DownloadsPage() {
  const t = useDownloadsT();
  useDocumentTitle(t('downloads.page.title'));
  const downloads = displayOrder(useLocalDownloads());
  const loaded = useDownloadsStore((s) => s.loaded);
  // Signed out, the films on the phone still play (decision 0233); the library and new downloads wait for a sign-in.
  const signedOut = !!useSignedOutOwner();

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        {/* The title and its line belong together: the link to the library stands beside both, not between them. */}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <h1 className="text-3xl font-extrabold tracking-tight">{t('downloads.page.title')}</h1>
            <p className="mt-1 text-stone-600 dark:text-stone-400">{t('downloads.page.lead')}</p>
          </div>
          {!signedOut && (
            <LinkButton to="/movies" variant="outline" size="sm">
              <FilmIcon className="size-4" /> {t('downloads.page.browse')}
            </LinkButton>
          )}
        </div>

        <div className="mt-6">
          <StorageSummary />
        </div>

        {!loaded ? (
          <PageSpinner label={t('downloads.page.loading')} />
        ) : downloads.length === 0 ? (
          <Card className="mt-6 flex flex-col items-center py-12 text-center">
            <DownloadIcon className="size-10 text-stone-400" />
            <p className="mt-4 text-lg font-semibold">{t('downloads.empty.title')}</p>
            <p className="mt-1 text-stone-600 dark:text-stone-400">
              {signedOut ? t('downloads.empty.signedOut') : t('downloads.empty.text')}
            </p>
            {signedOut ? (
              <LinkButton to="/login" className="mt-6">
                {t('downloads.empty.signIn')}
              </LinkButton>
            ) : (
              <LinkButton to="/movies" className="mt-6">
                {t('downloads.page.browse')}
              </LinkButton>
            )}
          </Card>
        ) : (
          <ul aria-label={t('downloads.page.list')} className="mt-6 space-y-4">
            {downloads.map((record) => (
              <DownloadItem key={record.key} record={record} />
            ))}
          </ul>
        )}

        {/*
          Below the list, and only once it is read from the phone: drawn earlier, these cards were pushed down when the
          list replaced the spinner (a layout shift Lighthouse measured on this screen). The offer comes after a
          finished download, and never stands between it and Play.
        */}
        {loaded && (
          <>
            {!signedOut && <TonightCard />}
            {!signedOut && <PhoneToPhoneCard />}
            {!signedOut && <OpenFilmFile />}
            <PushPrompt className="mt-6" />
            <DataUsedCard />
            <DownloadSettingsCard />
          </>
        )}
      </main>
    </div>
  );
}
