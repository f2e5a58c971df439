import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import { EnglishLocked } from '../downloads/travel.ts';
import { useP2pT } from './messages.ts';
import { answerEnglish, offerRead, startReceiving, stopTransfer, useTransfer } from './session.ts';
import { HotspotHowTo, PhaseNotes, SignalToScan, SignalToShow } from './TransferSteps.tsx';
import { TransferProgress } from './TransferProgress.tsx';

/**
 * /downloads/receive: films from a phone nearby, over its hotspot, with no data (issue 19/22 §1). The person scans
 * the sending phone's code and shows theirs; each film is checked as it lands, kept like a download and played with
 * the person's own plan — a film that waits for a plan says which plans have it.
 */
export default function ReceiveFilmsPage() {
  const t = useP2pT();
  useDocumentTitle(t('phone-to-phone.receive.title'));
  const { phase, role } = useTransfer();
  const busy = role === 'receive' && !['idle', 'finished', 'failed', 'dropped'].includes(phase.at);

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">{t('phone-to-phone.receive.title')}</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">{t('phone-to-phone.receive.intro')}</p>

        <Card className="mt-6">
          {role !== 'receive' || phase.at === 'idle' ? (
            <>
              <HotspotHowTo />
              <Button className="mt-4" onClick={startReceiving}>
                {t('phone-to-phone.receive.scan')}
              </Button>
            </>
          ) : (
            <>
              <PhaseNotes />
              {phase.at === 'scan-offer' && (
                <SignalToScan
                  step={t('phone-to-phone.receive.step1')}
                  expect="offer"
                  onSignal={(offer) => void offerRead(offer)}
                />
              )}
              {phase.at === 'show-answer' && (
                <SignalToShow description={phase.answer} step={t('phone-to-phone.receive.step2')} />
              )}
              {phase.at === 'asking' && <EnglishLocked stillToGo={phase.stillToGo} answer={answerEnglish} />}
              <TransferProgress />
              <div className="mt-6 flex flex-wrap gap-2">
                {busy ? (
                  <Button variant="outline" onClick={stopTransfer}>
                    {t('phone-to-phone.stop')}
                  </Button>
                ) : (
                  <Button variant={phase.at === 'dropped' ? 'primary' : 'outline'} onClick={startReceiving}>
                    {t(phase.at === 'dropped' ? 'phone-to-phone.connectAgain' : 'phone-to-phone.receive.more')}
                  </Button>
                )}
                <LinkButton to="/downloads" variant="ghost">
                  {t('phone-to-phone.myDownloads')}
                </LinkButton>
              </div>
            </>
          )}
        </Card>
      </main>
    </div>
  );
}
