import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import { EnglishLocked } from '../downloads/travel.ts';
import { answerEnglish, offerRead, startReceiving, stopTransfer, useTransfer } from './session.ts';
import { HotspotHowTo, PhaseNotes, SignalToScan, SignalToShow } from './TransferSteps.tsx';
import { TransferProgress } from './TransferProgress.tsx';

/**
 * /downloads/receive: films from a phone nearby, over its hotspot, with no data (issue 19/22 §1). The person scans
 * the sending phone's code and shows theirs; each film is checked as it lands, kept like a download and played with
 * the person's own plan — a film that waits for a plan says which plans have it.
 */
export default function ReceiveFilmsPage() {
  useDocumentTitle('Receive films from a phone');
  const { phase, role } = useTransfer();
  const busy = role === 'receive' && !['idle', 'finished', 'failed', 'dropped'].includes(phase.at);

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">Receive films from a phone</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          From a friend or an agent, with no data. Each film plays with your own plan.
        </p>

        <Card className="mt-6">
          {role !== 'receive' || phase.at === 'idle' ? (
            <>
              <HotspotHowTo />
              <Button className="mt-4" onClick={startReceiving}>
                Scan the sender’s code
              </Button>
            </>
          ) : (
            <>
              <PhaseNotes />
              {phase.at === 'scan-offer' && (
                <SignalToScan
                  step="Scan the code on the sending phone (Send films in its My Downloads)."
                  expect="offer"
                  onSignal={(offer) => void offerRead(offer)}
                />
              )}
              {phase.at === 'show-answer' && (
                <SignalToShow description={phase.answer} step="Now let the sending phone scan this code." />
              )}
              {phase.at === 'asking' && <EnglishLocked stillToGo={phase.stillToGo} answer={answerEnglish} />}
              <TransferProgress />
              <div className="mt-6 flex flex-wrap gap-2">
                {busy ? (
                  <Button variant="outline" onClick={stopTransfer}>
                    Stop
                  </Button>
                ) : (
                  <Button variant={phase.at === 'dropped' ? 'primary' : 'outline'} onClick={startReceiving}>
                    {phase.at === 'dropped' ? 'Connect again' : 'Receive more films'}
                  </Button>
                )}
                <LinkButton to="/downloads" variant="ghost">
                  My Downloads
                </LinkButton>
              </div>
            </>
          )}
        </Card>
      </main>
    </div>
  );
}
