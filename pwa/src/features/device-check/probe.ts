import {
  audioContentType,
  type CanPlayAnswer,
  type DecodingAnswer,
  DEVICE_CHECK_RENDITIONS,
  type PhoneHints,
  RENDITION_DECODING,
  type RenditionKind,
  videoContentType,
} from '@filamu/shared';

/** What this phone says about one rendition before anything is played. */
export interface RenditionProbe {
  decoding: DecodingAnswer | null;
  videoCanPlay: CanPlayAnswer;
  audioCanPlay: CanPlayAnswer;
}

/** A decoder that does not answer in this long is taken as no answer (a few milliseconds on a real phone). */
const DECODING_TIMEOUT_MS = 2000;

/**
 * Asks the page's own decoder, as the download dialog does (decision 0252): from the page, never the service worker,
 * where Chrome cannot see the hardware and never says `powerEfficient`.
 */
async function decodingOf(kind: RenditionKind): Promise<DecodingAnswer | null> {
  const capabilities = typeof navigator !== 'undefined' ? navigator.mediaCapabilities : undefined;
  if (!capabilities?.decodingInfo) return null;
  const decoding = RENDITION_DECODING[kind];
  const question = capabilities.decodingInfo({
    type: 'file',
    video: {
      contentType: videoContentType(decoding),
      width: decoding.width,
      height: decoding.height,
      bitrate: decoding.bitrate,
      framerate: decoding.framerate,
    },
    audio: { contentType: audioContentType(decoding) },
  });
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), DECODING_TIMEOUT_MS));
  try {
    const info = await Promise.race([question, timeout]);
    return info && { supported: info.supported, smooth: info.smooth, powerEfficient: info.powerEfficient };
  } catch {
    return null;
  }
}

function canPlay(element: HTMLMediaElement, type: string): CanPlayAnswer {
  const answer = element.canPlayType(type);
  return answer === 'probably' || answer === 'maybe' ? answer : '';
}

export async function probeRenditions(): Promise<Record<RenditionKind, RenditionProbe>> {
  const video = document.createElement('video');
  const entries = await Promise.all(
    DEVICE_CHECK_RENDITIONS.map(async (kind) => {
      const decoding = RENDITION_DECODING[kind];
      const probe: RenditionProbe = {
        decoding: await decodingOf(kind),
        videoCanPlay: canPlay(video, videoContentType(decoding)),
        audioCanPlay: canPlay(video, audioContentType(decoding)),
      };
      return [kind, probe] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<RenditionKind, RenditionProbe>;
}

interface UserAgentData {
  platform?: string;
  getHighEntropyValues?: (hints: string[]) => Promise<{ model?: string; platformVersion?: string }>;
}

/** The model and Android version Chrome leaves out of its reduced User-Agent; null where the browser has no hints. */
export async function phoneHints(): Promise<PhoneHints | null> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!data) return null;
  const cap = (value: string | undefined, max: number) => (value?.trim() ? value.trim().slice(0, max) : null);
  let high: { model?: string; platformVersion?: string } = {};
  try {
    high = (await data.getHighEntropyValues?.(['model', 'platformVersion'])) ?? {};
  } catch {
    // A browser may refuse high-entropy hints: the User-Agent is all there is then.
  }
  return {
    platform: cap(data.platform, 40),
    model: cap(high.model, 80),
    platformVersion: cap(high.platformVersion, 40),
  };
}
