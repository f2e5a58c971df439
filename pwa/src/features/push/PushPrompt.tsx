import { useId, useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { useHydrated } from '../../lib/hydration.ts';
import { useSession } from '../../lib/session.ts';
import { usePushT } from './messages.ts';
import { declineNotifications, enableNotifications, pushSupported, usePushOffer } from './push-client.ts';

/**
 * The in-app offer of notifications (decision 0152): after a first finished download or a confirmed payment, never on
 * a first visit; what they are for first, and the browser's own prompt only on "Turn on". A card in the page's flow on
 * the dashboard and My Downloads, never floating over the screen (decision 0175): a fixed card covered the Play button
 * of the download that had just made it appear.
 */
export function PushPrompt({ className }: { className?: string }) {
  const t = usePushT();
  const { status } = useSession();
  const { eligible, notNow } = usePushOffer();
  const hydrated = useHydrated();
  /** What the browser answered to Turn on; before that, its permission as it stands. */
  const [answered, setAnswered] = useState<NotificationPermission | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const titleId = useId();
  // The permission as it stood when the offer appeared: a change made elsewhere meanwhile (another tab, the browser's
  // settings) must not pull the card away from under the person's finger; Turn on reads it afresh.
  const [shownWith] = useState(() => (pushSupported() ? Notification.permission : null));
  const permission = answered ?? (hydrated ? shownWith : null);

  // Open while the browser asks and after a failure (the permission may be granted by then): the person sees why.
  if (status !== 'user' || !eligible || notNow || (permission !== 'default' && !busy && !failed)) return null;

  const turnOn = async () => {
    setBusy(true);
    setFailed(false);
    const result = await enableNotifications();
    setBusy(false);
    if (result === 'failed') return setFailed(true);
    // Granted or refused, the browser has answered; the offer is done either way.
    setAnswered(Notification.permission === 'default' ? 'denied' : Notification.permission);
  };

  return (
    <section
      aria-labelledby={titleId}
      className={cn(
        'rounded-2xl border border-brand-200 bg-brand-50 p-4 dark:border-brand-900 dark:bg-brand-950/40',
        className,
      )}
    >
      <h2 id={titleId} className="font-semibold text-stone-900 dark:text-stone-50">
        {t('push.prompt.title')}
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t('push.prompt.text')}</p>
      {failed ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {t('push.failed')}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={declineNotifications} disabled={busy}>
          {t('push.prompt.notNow')}
        </Button>
        <Button size="sm" onClick={() => void turnOn()} loading={busy}>
          {t('push.prompt.turnOn')}
        </Button>
      </div>
    </section>
  );
}
