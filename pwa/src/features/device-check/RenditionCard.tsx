import {
  audioContentType,
  type DeviceCheckAnswers,
  RENDITION_DECODING,
  RENDITION_TARGETS,
  type RenditionKind,
  videoContentType,
} from '@filamu/shared';
import { Card } from '../../components/ui/Card.tsx';
import { SampleClip } from './SampleClip.tsx';
import { canPlayWords, decoderWords, type PlayResult, RENDITION_NAMES, verdictWords } from './words.ts';

/** One rendition: its codec strings, what the decoder and `canPlayType` said, the verdict, and its sample. */
export function RenditionCard({
  kind,
  answers,
  played,
  onPlayed,
}: {
  kind: RenditionKind;
  answers: DeviceCheckAnswers;
  played: PlayResult | null;
  onPlayed: (result: PlayResult) => void;
}) {
  const answer = answers[kind];
  const decoding = RENDITION_DECODING[kind];
  const name = RENDITION_NAMES[kind];
  const headingId = `rendition-${kind}`;
  return (
    <Card role="region" aria-labelledby={headingId} data-testid={`rendition-${kind}`}>
      <h2 id={headingId} className="text-lg font-bold">
        {name}{' '}
        <span className="font-normal text-stone-600 dark:text-stone-400">· {RENDITION_TARGETS[kind].height}p</span>
      </h2>
      <p className="mt-1 font-semibold" data-testid={`verdict-${kind}`}>
        {verdictWords(kind, answer, answers)}
      </p>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-stone-600 dark:text-stone-400">Codecs</dt>
        <dd className="[overflow-wrap:anywhere]">
          <code>{videoContentType(decoding)}</code>, <code>{audioContentType(decoding)}</code>
        </dd>
        <dt className="text-stone-600 dark:text-stone-400">decodingInfo</dt>
        <dd>{decoderWords(answer.decoding)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">canPlayType</dt>
        <dd>
          video {canPlayWords(answer.videoCanPlay)}, audio {canPlayWords(answer.audioCanPlay)}
        </dd>
      </dl>
      <SampleClip kind={kind} name={name} result={played} onResult={onPlayed} />
    </Card>
  );
}
