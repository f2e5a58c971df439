import { contracts, formatBytes, formatUgx } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { api } from '../../../lib/api.ts';
import { currentOwnerId } from '../../../lib/owner.ts';
import { queryKeys } from '../../../lib/query-client.ts';
import { kick } from '../manager.ts';
import { type ReceiveResult, type ReceiveStep, receiveFilmFile } from '../receive-file.ts';

type Opening =
  | { at: 'idle' }
  | { at: 'working'; step: ReceiveStep }
  /** An English film while the Kinayuganda rule locks English: asked before anything is copied. */
  | { at: 'asking'; stillToGo: number; answer: (keep: boolean) => void }
  | { at: 'done'; result: Outcome };

type Outcome = Exclude<ReceiveResult, { kind: 'cancelled' }>;

const FAILED = 'The film file could not be opened. Check the space on your phone and try again.';

function stepWords(step: ReceiveStep): string {
  if (step.step === 'checking') return 'Checking the film file…';
  if (step.step === 'licensing') return 'Getting its licence for this phone…';
  return `Checking and saving: ${formatBytes(step.doneBytes)} of ${formatBytes(step.totalBytes)}`;
}

/**
 * "Open a film file" (issue 19/22): a `.filamu` file a friend or an agent sent with another app or a memory card
 * becomes a film on this phone, checked chunk by chunk, played with the person's own plan — no data spent on it.
 */
export function OpenFilmFile() {
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
      <CardTitle id={headingId}>Got a film from a friend?</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Open a Filamu film file sent with WhatsApp, Xender, Bluetooth or a memory card. It plays with your own plan, and
        no data is spent on the film.
      </p>
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
        Open a film file
      </Button>
      {opening.at === 'working' && (
        <div className="mt-4" role="status">
          <p className="text-sm">{stepWords(opening.step)}</p>
          {opening.step.step === 'copying' && (
            <ProgressBar
              className="mt-2"
              label="Film file checked"
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

/** Said before the copy (issue 19/22 §4): an English film cannot be unlocked before the Kinayuganda rule is met. */
function EnglishLocked({ stillToGo, answer }: { stillToGo: number; answer: (keep: boolean) => void }) {
  const films = stillToGo === 1 ? '1 Kinayuganda film' : `${stillToGo} Kinayuganda films`;
  return (
    <div role="alert" className="mt-4 text-sm">
      <p className="font-medium">This is an English film: it unlocks once you have downloaded {films} more.</p>
      <p className="mt-1 text-stone-700 dark:text-stone-300">
        You can keep it on this phone now, with no data used; it plays as soon as English unlocks.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => answer(true)}>
          Keep it for later
        </Button>
        <Button size="sm" variant="outline" onClick={() => answer(false)}>
          Not now
        </Button>
      </div>
    </div>
  );
}

function OutcomeNote({ result }: { result: Outcome }) {
  if (result.kind === 'refused') {
    return (
      <p role="alert" className="mt-4 text-sm font-medium text-red-700 dark:text-red-400">
        {result.message}
      </p>
    );
  }
  return (
    <div role="status" className="mt-4 text-sm">
      <p className="font-medium text-green-800 dark:text-green-300">
        {result.title} is on this phone. 0 MB of data used for the film.
      </p>
      {result.kind === 'waiting' && <p className="mt-1 text-stone-700 dark:text-stone-300">{result.why}</p>}
      {result.kind === 'waiting' && result.needsPlan && <PlansWithFilm movieId={result.movieId} />}
    </div>
  );
}

/**
 * Which plans include the received film (issue 19/22 §3), each with its price and a way to pay with mobile money at
 * once; every plan when the list cannot be had (offline), so the person is never left without a way on.
 */
function PlansWithFilm({ movieId }: { movieId: string }) {
  const plans = useQuery({
    queryKey: [...queryKeys.subscriptionPlans, 'with-film', movieId] as const,
    queryFn: () => api(contracts.plans.customerPlans, { query: { movie: movieId } }),
  });
  const found = plans.data?.plans ?? [];
  return (
    <div className="mt-3">
      <p className="text-stone-700 dark:text-stone-300">
        Choose a plan with this film and pay with mobile money: it plays as soon as the plan starts.
      </p>
      {plans.isPending && (
        <p role="status" className="mt-2 text-stone-600 dark:text-stone-400">
          Finding the plans with this film…
        </p>
      )}
      {found.length > 0 && (
        <ul className="mt-2 space-y-2" aria-label="Plans with this film">
          {found.map((plan) => (
            <li key={plan.id} className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">
                {plan.plan_name} · {formatUgx(plan.price_ugx)}
              </span>
              <LinkButton to={`/checkout/${plan.id}`} size="sm" aria-label={`Pay for ${plan.plan_name}`}>
                Pay
              </LinkButton>
            </li>
          ))}
        </ul>
      )}
      {!plans.isPending && found.length === 0 && (
        <LinkButton to="/subscription" size="sm" className="mt-3">
          See plans
        </LinkButton>
      )}
    </div>
  );
}
