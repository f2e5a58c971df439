import { useP2pT } from './messages.ts';
import { useTransfer } from './session.ts';
import type { Description } from './peer.ts';
import { encodeSignal } from './signalling/signal-code.ts';
import { QrCode } from './signalling/QrCode.tsx';
import { QrScanner } from './signalling/QrScanner.tsx';

/** Said once, before anything: both phones on one hotspot, no data. */
export function HotspotHowTo() {
  const t = useP2pT();
  return (
    <div className="text-sm text-stone-700 dark:text-stone-300">
      <p className="font-semibold text-stone-900 dark:text-stone-100">{t('phone-to-phone.howTo.title')}</p>
      <ol className="mt-1 list-decimal space-y-1 pl-5">
        <li>{t('phone-to-phone.howTo.hotspot')}</li>
        <li>{t('phone-to-phone.howTo.data')}</li>
        <li>{t('phone-to-phone.howTo.close')}</li>
      </ol>
    </div>
  );
}

/** What the transfer is doing now, for both phones, in words (announced as it changes). */
export function PhaseNotes() {
  const t = useP2pT();
  const { phase, screenHeld } = useTransfer();
  const words = (() => {
    switch (phase.at) {
      case 'preparing':
        return t('phone-to-phone.phase.preparing');
      case 'connecting':
        return t('phone-to-phone.phase.connecting');
      case 'moving':
        return screenHeld ? t('phone-to-phone.phase.moving') : t('phone-to-phone.phase.movingScreen');
      case 'finished':
        return t('phone-to-phone.phase.done');
      default:
        return null;
    }
  })();
  if (phase.at === 'dropped' || phase.at === 'failed') {
    return (
      <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
        {phase.message}
      </p>
    );
  }
  return words ? (
    <p role="status" className="text-sm font-medium">
      {words}
    </p>
  ) : null;
}

/** This phone's code, for the other phone to scan (or type). */
export function SignalToShow({ description, step }: { description: Description; step: string }) {
  const t = useP2pT();
  return (
    <div className="mt-2">
      <p className="text-sm font-medium">{step}</p>
      <QrCode className="mt-3" text={encodeSignal(description)} label={t('phone-to-phone.qr.label')} />
    </div>
  );
}

/** The other phone's code, read with the camera (or typed). */
export function SignalToScan({
  step,
  expect,
  onSignal,
}: {
  step: string;
  expect: Description['type'];
  onSignal: (description: Description) => void;
}) {
  return (
    <div className="mt-6">
      <p className="text-sm font-medium">{step}</p>
      <QrScanner className="mt-3" expect={expect} onSignal={onSignal} />
    </div>
  );
}
