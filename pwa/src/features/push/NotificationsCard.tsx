import { useEffect, useState } from 'react';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { pushT, usePushT } from './messages.ts';
import { disableNotifications, enableNotifications, notificationsOn, pushSupported } from './push-client.ts';

type State = 'loading' | 'unsupported' | 'blocked' | 'on' | 'off';

/** Profile → Security: notifications on this phone, on or off (off: the server forgets this browser). */
export function NotificationsCard() {
  const t = usePushT();
  const [state, setState] = useState<State>(() =>
    !pushSupported() ? 'unsupported' : Notification.permission === 'denied' ? 'blocked' : 'loading',
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!pushSupported() || Notification.permission === 'denied') return;
    let live = true;
    void notificationsOn().then((on) => live && setState(on ? 'on' : 'off'));
    return () => {
      live = false;
    };
  }, []);

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      if (state === 'on') {
        await disableNotifications();
        setState('off');
      } else {
        const result = await enableNotifications();
        if (result === 'on') setState('on');
        else if (result === 'denied') setState(Notification.permission === 'denied' ? 'blocked' : 'off');
        else setError(pushT('push.failed'));
      }
    } catch (e) {
      setError(errorMessage(e, pushT('push.card.changeFailed')));
    } finally {
      setBusy(false);
    }
  };

  const on = state === 'on';
  return (
    <Card>
      <CardTitle>{t('push.card.title')}</CardTitle>
      {state === 'unsupported' ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{t('push.card.unsupported')}</p>
      ) : state === 'blocked' ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{t('push.card.blocked')}</p>
      ) : (
        <div className="mt-3 flex items-center justify-between gap-4">
          <p id="push-switch-label" className="text-sm text-stone-700 dark:text-stone-300">
            {t('push.card.switch')}
          </p>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby="push-switch-label"
            disabled={busy || state === 'loading'}
            onClick={() => void toggle()}
            className={cn(
              'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors disabled:opacity-60',
              on ? 'bg-brand-700 dark:bg-brand-500' : 'bg-stone-300 dark:bg-stone-700',
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                'inline-block size-5 rounded-full bg-white shadow transition-transform',
                on ? 'translate-x-6' : 'translate-x-1',
              )}
            />
          </button>
        </div>
      )}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </Card>
  );
}
