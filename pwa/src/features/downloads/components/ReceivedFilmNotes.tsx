import { contracts, formatUgx } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { api } from '../../../lib/api.ts';
import { currentOwnerId } from '../../../lib/owner.ts';
import { queryKeys } from '../../../lib/query-client.ts';
import type { ReceiveResult } from '../receive-film.ts';
import { reasonWords } from '../describe.ts';
import { useDownloadsT } from '../messages.ts';
import { UssdUnlock } from './UssdUnlock.tsx';

/**
 * What a person is told about a film that came from another phone, whichever way it came (a film file or a hotspot):
 * the question asked before an English film is taken, and the outcome once it is on the phone.
 */

export type ReceivedOutcome = Exclude<ReceiveResult, { kind: 'cancelled' }>;

/** Said before the copy (issue 19/22 §4): an English film cannot be unlocked before the Kinayuganda rule is met. */
export function EnglishLocked({ stillToGo, answer }: { stillToGo: number; answer: (keep: boolean) => void }) {
  const t = useDownloadsT();
  return (
    <div role="alert" className="mt-4 text-sm">
      <p className="font-medium">{t('downloads.received.english', { count: stillToGo })}</p>
      <p className="mt-1 text-stone-700 dark:text-stone-300">{t('downloads.received.english.keep')}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => answer(true)}>
          {t('downloads.received.keepForLater')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => answer(false)}>
          {t('downloads.copy.notNow')}
        </Button>
      </div>
    </div>
  );
}

export function OutcomeNote({ result }: { result: ReceivedOutcome }) {
  const t = useDownloadsT();
  if (result.kind === 'refused') {
    return (
      <p role="alert" className="mt-4 text-sm font-medium text-red-700 dark:text-red-400">
        {reasonWords(result.message)}
      </p>
    );
  }
  return (
    <>
      <div role="status" className="mt-4 text-sm">
        <p className="font-medium text-green-800 dark:text-green-300">
          {t('downloads.received.onPhone', { title: result.title })}
        </p>
        {result.kind === 'waiting' && (
          <p className="mt-1 text-stone-700 dark:text-stone-300">{reasonWords(result.why)}</p>
        )}
        {result.kind === 'waiting' && result.needsPlan && <PlansWithFilm movieId={result.movieId} />}
      </div>
      {/* Outside the live region: a form is not read out as news. */}
      {result.kind === 'waiting' && result.offline && <OfflineUnlock movieId={result.movieId} title={result.title} />}
    </>
  );
}

/** Offline, the film can be unlocked by USSD with no data (decision 0249), for the person it was received for. */
function OfflineUnlock({ movieId, title }: { movieId: string; title: string }) {
  const ownerId = currentOwnerId();
  return ownerId ? <UssdUnlock ownerId={ownerId} movieId={movieId} title={title} /> : null;
}

/**
 * Which plans include the received film (issue 19/22 §3), each with its price and a way to pay with mobile money at
 * once; every plan when the list cannot be had (offline), so the person is never left without a way on.
 */
function PlansWithFilm({ movieId }: { movieId: string }) {
  const t = useDownloadsT();
  const plans = useQuery({
    queryKey: [...queryKeys.subscriptionPlans, 'with-film', movieId] as const,
    queryFn: () => api(contracts.plans.customerPlans, { query: { movie: movieId } }),
  });
  const found = plans.data?.plans ?? [];
  return (
    <div className="mt-3">
      <p className="text-stone-700 dark:text-stone-300">{t('downloads.received.plans')}</p>
      {plans.isPending && (
        <p role="status" className="mt-2 text-stone-600 dark:text-stone-400">
          {t('downloads.received.finding')}
        </p>
      )}
      {found.length > 0 && (
        <ul className="mt-2 space-y-2" aria-label={t('downloads.received.plansList')}>
          {found.map((plan) => (
            <li key={plan.id} className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">
                {plan.plan_name} · {formatUgx(plan.price_ugx)}
              </span>
              <LinkButton
                to={`/checkout/${plan.id}`}
                size="sm"
                aria-label={t('downloads.received.payFor', { plan: plan.plan_name })}
              >
                {t('downloads.received.pay')}
              </LinkButton>
            </li>
          ))}
        </ul>
      )}
      {!plans.isPending && found.length === 0 && (
        <LinkButton to="/subscription" size="sm" className="mt-3">
          {t('downloads.button.seePlans')}
        </LinkButton>
      )}
    </div>
  );
}
