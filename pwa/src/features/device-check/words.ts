import {
  type CanPlayAnswer,
  type DecodingAnswer,
  phoneGetsHevcSmall,
  playsHere,
  type DeviceCheckAnswers,
  type RenditionAnswer,
  type RenditionKind,
} from '@filamu/shared';
import { deviceCheckT as t } from './messages.ts';

/** Each rendition as an operator names it on the page: its codec, then the size a subscriber sees. */
export const RENDITION_NAMES: Record<RenditionKind, string> = {
  small: 'H.264 Small',
  'small-hevc': 'HEVC Small',
  standard: 'H.264 Standard',
  hd: 'H.264 HD',
};

export function decoderWords(decoding: DecodingAnswer | null): string {
  if (!decoding) return t('device-check.decoder.unknown');
  if (!decoding.supported) return t('device-check.decoder.unsupported');
  return [
    t('device-check.decoder.supported'),
    decoding.smooth ? t('device-check.decoder.smooth') : t('device-check.decoder.notSmooth'),
    decoding.powerEfficient ? t('device-check.decoder.hardware') : t('device-check.decoder.software'),
  ].join(', ');
}

export const canPlayWords = (answer: CanPlayAnswer) => (answer === '' ? 'no' : answer);

/** What the answers mean for this phone, in the words an operator repeats to a customer. */
export function verdictWords(kind: RenditionKind, answer: RenditionAnswer, answers: DeviceCheckAnswers): string {
  if (kind === 'small-hevc') {
    if (phoneGetsHevcSmall(answers)) return t('device-check.verdict.hevc.hardware');
    if (answer.decoding?.supported) {
      return answer.audioCanPlay === ''
        ? t('device-check.verdict.hevc.noOpus')
        : t('device-check.verdict.hevc.software');
    }
    return t('device-check.verdict.hevc.none');
  }
  if (!playsHere(answer)) return t('device-check.verdict.none');
  if (!answer.decoding) return t('device-check.verdict.unknown');
  if (!answer.decoding.powerEfficient) return t('device-check.verdict.software');
  return answer.decoding.smooth ? t('device-check.verdict.hardware') : t('device-check.verdict.hardware.notSmooth');
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
  if (!error) return t('device-check.mediaError.none');
  const name = MEDIA_ERRORS[error.code] ?? `error ${error.code}`;
  return error.message ? `${name} (${error.message})` : name;
}
