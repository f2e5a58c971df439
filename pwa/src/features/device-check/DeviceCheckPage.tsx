import {
  contracts,
  DEVICE_CHECK_RENDITIONS,
  type DeviceCheckAnswers,
  describePhone,
  type PhoneHints,
  type RenditionKind,
} from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { AppHeader } from '../../components/layout/AppHeader.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { PhoneSummary } from './PhoneSummary.tsx';
import { phoneHints, probeRenditions, type RenditionProbe } from './probe.ts';
import { RenditionCard } from './RenditionCard.tsx';
import type { PlayResult } from './words.ts';
import { useDeviceCheckT } from './messages.ts';

type Probed = { renditions: Record<RenditionKind, RenditionProbe>; hints: PhoneHints | null };

/**
 * /device-check (decision 0253): open on any phone, signed in or not, to see what it says about each rendition's
 * codecs, play a few seconds of each, and send the result to the console's Phones tab.
 */
export default function DeviceCheckPage() {
  const t = useDeviceCheckT();
  useDocumentTitle(t('device-check.title'));
  const [probed, setProbed] = useState<Probed | null>(null);
  const [failed, setFailed] = useState(false);
  const [played, setPlayed] = useState<Partial<Record<RenditionKind, PlayResult>>>({});

  useEffect(() => {
    let live = true;
    Promise.all([probeRenditions(), phoneHints()])
      .then(([renditions, hints]) => live && setProbed({ renditions, hints }))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const answers: DeviceCheckAnswers | null = probed
    ? (Object.fromEntries(
        DEVICE_CHECK_RENDITIONS.map((kind) => [
          kind,
          { ...probed.renditions[kind], played: played[kind]?.outcome ?? 'not-tried' },
        ]),
      ) as DeviceCheckAnswers)
    : null;

  const send = useMutation({
    mutationFn: (body: { hints: PhoneHints | null; answers: DeviceCheckAnswers }) =>
      api(contracts.deviceChecks.sendDeviceCheck, { body }, { redirectOn401: false }),
  });

  return (
    <div className="min-h-screen">
      <AppHeader />
      <main id="main" className="mx-auto max-w-3xl space-y-4 px-4 py-8 sm:px-6">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('device-check.title')}</h1>
          <p className="mt-1 text-stone-600 dark:text-stone-400">{t('device-check.intro')}</p>
        </div>
        {failed ? (
          <p role="alert" className="font-medium text-red-700 dark:text-red-400">
            {t('device-check.failed')}
          </p>
        ) : !probed || !answers ? (
          <div role="status" className="flex items-center gap-3 text-stone-600 dark:text-stone-400">
            <Spinner className="size-5 text-brand-700 dark:text-brand-400" label="" /> {t('device-check.asking')}
          </div>
        ) : (
          <>
            <PhoneSummary phone={describePhone(navigator.userAgent, probed.hints)} answers={answers} />
            {DEVICE_CHECK_RENDITIONS.map((kind) => (
              <RenditionCard
                key={kind}
                kind={kind}
                answers={answers}
                played={played[kind] ?? null}
                onPlayed={(result) => setPlayed((all) => ({ ...all, [kind]: result }))}
              />
            ))}
            <div className="space-y-2 pt-2">
              <Button
                onClick={() => send.mutate({ hints: probed.hints, answers })}
                disabled={send.isPending}
                className="w-full sm:w-auto"
              >
                {send.isPending ? t('device-check.sending') : t('device-check.send')}
              </Button>
              <p aria-live="polite" className="text-sm">
                {send.isSuccess && <span className="text-green-800 dark:text-green-300">{send.data.message}</span>}
                {send.isError && (
                  <span className="text-red-700 dark:text-red-400">
                    {t('device-check.notSent', {
                      error: errorMessage(send.error, t('device-check.notSent.fallback')),
                    })}
                  </span>
                )}
              </p>
            </div>
          </>
        )}
      </main>
    </div>
  );
}
