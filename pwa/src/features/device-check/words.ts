import {
  type CanPlayAnswer,
  type DecodingAnswer,
  phoneGetsHevcSmall,
  playsHere,
  type DeviceCheckAnswers,
  type RenditionAnswer,
  type RenditionKind,
} from '@filamu/shared';

/** Each rendition as an operator names it on the page: its codec, then the size a subscriber sees. */
export const RENDITION_NAMES: Record<RenditionKind, string> = {
  small: 'H.264 Small',
  'small-hevc': 'HEVC Small',
  standard: 'H.264 Standard',
  hd: 'H.264 HD',
};

export function decoderWords(decoding: DecodingAnswer | null): string {
  if (!decoding) return 'Not available: this browser cannot say';
  if (!decoding.supported) return 'Not supported';
  return [
    'Supported',
    decoding.smooth ? 'smooth' : 'not smooth',
    decoding.powerEfficient ? 'power-efficient (hardware)' : 'not power-efficient (software)',
  ].join(', ');
}

export const canPlayWords = (answer: CanPlayAnswer) => (answer === '' ? 'no' : answer);

/** What the answers mean for this phone, in the words an operator repeats to a customer. */
export function verdictWords(kind: RenditionKind, answer: RenditionAnswer, answers: DeviceCheckAnswers): string {
  if (kind === 'small-hevc') {
    if (phoneGetsHevcSmall(answers)) return 'Plays, in hardware — Filamu will give this phone the small HEVC files.';
    if (answer.decoding?.supported) {
      return answer.audioCanPlay === ''
        ? 'The picture plays but not its Opus sound — Filamu will give this phone the H.264 Small.'
        : 'Plays only in software, hard on the battery — Filamu will give this phone the H.264 Small.';
    }
    return 'Does not play — Filamu will give this phone the H.264 Small.';
  }
  if (!playsHere(answer)) return 'Does not play on this phone.';
  if (!answer.decoding) return 'Should play (this browser cannot say how well).';
  if (!answer.decoding.powerEfficient) return 'Plays, in software — it may stutter and use more battery.';
  return answer.decoding.smooth ? 'Plays, in hardware.' : 'Plays, in hardware, but may not be smooth.';
}

/** How a tried sample ended. */
export type PlayResult = { outcome: 'played' } | { outcome: 'failed'; reason: string };

const MEDIA_ERRORS: Record<number, string> = {
  1: 'MEDIA_ERR_ABORTED',
  2: 'MEDIA_ERR_NETWORK',
  3: 'MEDIA_ERR_DECODE',
  4: 'MEDIA_ERR_SRC_NOT_SUPPORTED',
};

/** A MediaError as "MEDIA_ERR_DECODE (the browser's own message)". */
export function mediaErrorWords(error: MediaError | null): string {
  if (!error) return 'the clip stopped without saying why';
  const name = MEDIA_ERRORS[error.code] ?? `error ${error.code}`;
  return error.message ? `${name} (${error.message})` : name;
}
