import { useLocation } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { SparklesIcon, WifiOffIcon } from '../../components/ui/icons.tsx';
import { useT } from '../../lib/i18n.ts';
import { useOnline } from '../../lib/online.ts';
import { usePwaStore } from '../../lib/pwa.ts';

/** Pages that say themselves what being offline means there: one offline message a page, not two. */
const OWN_OFFLINE_NOTICE = new Set(['/movies']);

/** 'You are offline' banner while the browser reports no connection. */
export function OfflineBanner() {
  const t = useT();
  const online = useOnline();
  const { pathname } = useLocation();
  if (online || OWN_OFFLINE_NOTICE.has(pathname)) return null;
  return (
    <div
      role="status"
      className="sticky top-0 z-40 flex items-center justify-center gap-2 bg-stone-900 px-4 py-2 text-sm font-medium text-white dark:bg-stone-100 dark:text-stone-900"
    >
      <WifiOffIcon className="size-4" />
      {t('ui.offline')}
    </div>
  );
}

/** Offered when a new service worker is waiting. */
export function UpdatePrompt() {
  const t = useT();
  const updateAvailable = usePwaStore((s) => s.updateAvailable);
  const applyUpdate = usePwaStore((s) => s.applyUpdate);
  if (!updateAvailable || !applyUpdate) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-4 bottom-20 z-50 lg:bottom-4 mx-auto flex max-w-md items-center gap-3 rounded-2xl border border-brand-300 bg-white p-4 shadow-xl dark:border-brand-800 dark:bg-stone-900"
    >
      <SparklesIcon className="size-6 shrink-0 text-brand-600 dark:text-brand-400" />
      <p className="flex-1 text-sm font-medium">{t('ui.update.available')}</p>
      <Button size="sm" onClick={applyUpdate}>
        {t('ui.reload')}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => usePwaStore.setState({ updateAvailable: false })}>
        {t('ui.update.later')}
      </Button>
    </div>
  );
}
