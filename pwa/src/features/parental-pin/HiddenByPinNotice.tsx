import { contracts, type ParentalHides } from '@filamu/shared';
import { useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { useSessionStore } from '../../lib/session.ts';
import { usePinT } from './messages.ts';
import { applyPinStatus, unlockedNow } from './pin-state.ts';
import { PinPrompt } from './PinPrompt.tsx';

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * Says in the library that the parental PIN hides titles (the server leaves them out), and shows them on this
 * session for 30 minutes once the PIN is entered; while shown, hides them again on request.
 */
export function HiddenByPinNotice({ hidden }: { hidden: ParentalHides | null | undefined }) {
  const t = usePinT();
  const status = useSessionStore((s) => s.user?.parentalPin);
  const [asking, setAsking] = useState(false);
  const [hiding, setHiding] = useState(false);

  if (hidden) {
    return (
      <Card role="status" data-testid="hidden-by-pin" className="mt-6">
        <p className="font-semibold">{t('parental-pin.notice.hidden')}</p>
        <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
          {t(hidden === '13' ? 'parental-pin.notice.on.13' : 'parental-pin.notice.on.18')}
        </p>
        {asking ? (
          <PinPrompt
            autoFocus
            submitLabel={t('parental-pin.notice.showTitles')}
            check={async (pin) => {
              try {
                applyPinStatus(await api(contracts.parentalPin.verifyParentalPin, { body: { pin } }));
                return null;
              } catch (error) {
                return errorMessage(error, t('parental-pin.notice.checkFailed'));
              }
            }}
          />
        ) : (
          <Button variant="outline" size="sm" className="mt-3" onClick={() => setAsking(true)}>
            {t('parental-pin.notice.showHidden')}
          </Button>
        )}
      </Card>
    );
  }
  if (!status?.pinSet || !unlockedNow(status)) return null;
  return (
    <Card role="status" data-testid="shown-by-pin" className="mt-6 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {t('parental-pin.notice.shownUntil', { time: clock(status.unlockedUntil!) })}
      </p>
      <Button
        variant="outline"
        size="sm"
        loading={hiding}
        onClick={() => {
          setHiding(true);
          api(contracts.parentalPin.lockParentalPin)
            .then(applyPinStatus)
            .catch(() => undefined)
            .finally(() => setHiding(false));
        }}
      >
        {t('parental-pin.notice.hideAgain')}
      </Button>
    </Card>
  );
}
