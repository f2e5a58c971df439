import { formatBytes } from '@filamu/shared';
import { useId, useState } from 'react';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import type { LocalDownload } from '../downloads/engine/record.ts';
import { useLocalDownloads } from '../downloads/hooks.ts';
import { manifestFor, NEEDS_A_CONNECTION } from '../downloads/travel.ts';
import { useP2pT } from './messages.ts';
import { answerRead, sendAgain, startSending, stopTransfer, useTransfer } from './session.ts';
import { PhaseNotes, SignalToShow, SignalToScan, HotspotHowTo } from './TransferSteps.tsx';
import { TransferProgress } from './TransferProgress.tsx';

/** A film this phone can send: finished and encrypted (a plain file from before encryption has no manifest). */
const sendable = (record: LocalDownload) => record.state === 'complete' && record.fileNonce != null;

/**
 * /downloads/send: films from this phone to one nearby, over the hotspot, with no data (issue 19/22 §1). The person
 * picks the films, shows a code, scans the other phone's code, and the films go; the other phone needs its own plan.
 */
export default function SendFilmsPage() {
  const t = useP2pT();
  useDocumentTitle(t('phone-to-phone.send.title'));
  const { phase, role } = useTransfer();
  const films = useLocalDownloads().filter(sendable);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  /** On the offer's step: showing this phone's code, or scanning the other phone's. */
  const [scanning, setScanning] = useState(false);
  const problemId = useId();
  const busy = role === 'send' && !['idle', 'finished', 'failed', 'dropped'].includes(phase.at);

  const start = async () => {
    setProblem(null);
    setPreparing(true);
    const picked = films.filter((record) => chosen.has(record.movieId));
    const withManifests = [];
    for (const record of picked) {
      const manifest = await manifestFor(record);
      if (!manifest) {
        setPreparing(false);
        return setProblem(`${record.title}: ${NEEDS_A_CONNECTION}`);
      }
      withManifests.push({ record, manifest });
    }
    setPreparing(false);
    setScanning(false);
    await startSending(withManifests);
  };

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">{t('phone-to-phone.send.title')}</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">{t('phone-to-phone.send.intro')}</p>

        {role === 'send' && phase.at !== 'idle' ? (
          <Card className="mt-6">
            <PhaseNotes />
            {phase.at === 'show-offer' && !scanning && (
              <>
                <SignalToShow description={phase.offer} step={t('phone-to-phone.send.step1')} />
                <Button className="mt-4 w-full" onClick={() => setScanning(true)}>
                  {t('phone-to-phone.send.next')}
                </Button>
              </>
            )}
            {phase.at === 'show-offer' && scanning && (
              <>
                <SignalToScan
                  step={t('phone-to-phone.send.step2')}
                  expect="answer"
                  onSignal={(answer) => void answerRead(answer)}
                />
                <Button variant="ghost" size="sm" className="mt-2 w-full" onClick={() => setScanning(false)}>
                  {t('phone-to-phone.send.showAgain')}
                </Button>
              </>
            )}
            <TransferProgress />
            <div className="mt-6 flex flex-wrap gap-2">
              {busy ? (
                <Button variant="outline" onClick={stopTransfer}>
                  {t('phone-to-phone.stop')}
                </Button>
              ) : phase.at === 'dropped' ? (
                <Button onClick={() => void sendAgain()}>{t('phone-to-phone.connectAgain')}</Button>
              ) : (
                <Button variant="outline" onClick={stopTransfer}>
                  {t('phone-to-phone.send.more')}
                </Button>
              )}
              <LinkButton to="/downloads" variant="ghost">
                {t('phone-to-phone.myDownloads')}
              </LinkButton>
            </div>
          </Card>
        ) : films.length === 0 ? (
          <Card className="mt-6 text-center">
            <p className="text-lg font-semibold">{t('phone-to-phone.send.none')}</p>
            <p className="mt-1 text-stone-600 dark:text-stone-400">{t('phone-to-phone.send.none.text')}</p>
            <LinkButton to="/movies" className="mt-4">
              {t('phone-to-phone.browse')}
            </LinkButton>
          </Card>
        ) : (
          <Card className="mt-6">
            <HotspotHowTo />
            <fieldset className="mt-4">
              <legend className="font-semibold">{t('phone-to-phone.send.which')}</legend>
              <ul className="mt-2 space-y-2">
                {films.map((record) => (
                  <li key={record.movieId}>
                    <label className="flex min-h-11 items-center gap-3">
                      <input
                        type="checkbox"
                        className="size-5 shrink-0"
                        checked={chosen.has(record.movieId)}
                        onChange={(event) => {
                          const next = new Set(chosen);
                          if (event.currentTarget.checked) next.add(record.movieId);
                          else next.delete(record.movieId);
                          setChosen(next);
                        }}
                      />
                      <span className="min-w-0 break-words">
                        {record.title}{' '}
                        <span className="text-sm text-stone-600 dark:text-stone-400">· {formatBytes(record.size)}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
            {problem && (
              <p id={problemId} role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
                {problem}
              </p>
            )}
            <Button
              className="mt-4"
              disabled={chosen.size === 0 || preparing}
              aria-describedby={problem ? problemId : undefined}
              onClick={() => void start()}
            >
              {t('phone-to-phone.send.submit', { count: chosen.size })}
            </Button>
          </Card>
        )}
      </main>
    </div>
  );
}
