import { formatBytes } from '@filamu/shared';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { currentOwnerId } from '../../../lib/owner.ts';
import { kick } from '../manager.ts';
import { type ReceiveStep, receiveFilmFile } from '../receive-file.ts';
import { downloadsT, useDownloadsT } from '../messages.ts';
import { EnglishLocked, OutcomeNote, type ReceivedOutcome } from './ReceivedFilmNotes.tsx';

type Opening =
  | { at: 'idle' }
  | { at: 'working'; step: ReceiveStep }
  /** An English film while the Kinayuganda rule locks English: asked before anything is copied. */
  | { at: 'asking'; stillToGo: number; answer: (keep: boolean) => void }
  | { at: 'done'; result: ReceivedOutcome };

const FAILED = 'The film file could not be opened. Check the space on your phone and try again.';

function stepWords(step: ReceiveStep): string {
  if (step.step === 'checking') return downloadsT('downloads.open.checking');
  if (step.step === 'licensing') return downloadsT('downloads.open.licensing');
  return downloadsT('downloads.open.saving', {
    received: formatBytes(step.doneBytes),
    size: formatBytes(step.totalBytes),
  });
}

/**
 * "Open a film file" (issue 19/22): a `.filamu` file a friend or an agent sent with another app or a memory card
 * becomes a film on this phone, checked chunk by chunk, played with the person's own plan — no data spent on it.
 */
export function OpenFilmFile() {
  const t = useDownloadsT();
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [opening, setOpening] = useState<Opening>({ at: 'idle' });
  const working = opening.at === 'working' || opening.at === 'asking';

  const open = async (file: File) => {
    const ownerId = currentOwnerId();
    if (!ownerId) return;
    setOpening({ at: 'working', step: { step: 'checking' } });
    try {
      const result = await receiveFilmFile(file, ownerId, (step) => setOpening({ at: 'working', step }), {
        keepLockedEnglish: (stillToGo) =>
          new Promise<boolean>((answer) =>
            setOpening({
              at: 'asking',
              stillToGo,
              answer: (keep) => {
                setOpening({ at: 'working', step: { step: 'checking' } });
                answer(keep);
              },
            }),
          ),
      });
      setOpening(result.kind === 'cancelled' ? { at: 'idle' } : { at: 'done', result });
    } catch {
      setOpening({ at: 'done', result: { kind: 'refused', message: FAILED } });
    }
    kick();
  };

  return (
    <Card className="mt-6" role="region" aria-labelledby={headingId}>
      <CardTitle id={headingId}>{t('downloads.open.title')}</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t('downloads.open.text')}</p>
      <input
        ref={input}
        type="file"
        accept=".filamu"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) void open(file);
        }}
      />
      <Button className="mt-4" variant="outline" size="sm" disabled={working} onClick={() => input.current?.click()}>
        {t('downloads.open.button')}
      </Button>
      {opening.at === 'working' && (
        <div className="mt-4" role="status">
          <p className="text-sm">{stepWords(opening.step)}</p>
          {opening.step.step === 'copying' && (
            <ProgressBar
              className="mt-2"
              label={t('downloads.open.progress')}
              percent={(opening.step.doneBytes / Math.max(1, opening.step.totalBytes)) * 100}
            />
          )}
        </div>
      )}
      {opening.at === 'asking' && <EnglishLocked stillToGo={opening.stillToGo} answer={opening.answer} />}
      {opening.at === 'done' && <OutcomeNote result={opening.result} />}
    </Card>
  );
}
