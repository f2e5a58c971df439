import { SMALL_HEVC_DECODING } from '@filamu/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DecodingAnswer, type OpusAnswer, smallForThisPhone } from './hevc-support.ts';

const OPUS_ANSWERS: OpusAnswer[] = ['', 'maybe', 'probably'];
const BOTH = [false, true];

const decodingAnswers: Array<{ answer: DecodingAnswer; hardwareHevc: boolean }> = [
  { answer: { asked: 'no-api' }, hardwareHevc: false },
  { answer: { asked: 'failed' }, hardwareHevc: false },
  ...BOTH.flatMap((supported) =>
    BOTH.flatMap((smooth) =>
      BOTH.map((powerEfficient) => ({
        answer: { asked: 'answered' as const, supported, smooth, powerEfficient },
        hardwareHevc: supported && powerEfficient,
      })),
    ),
  ),
];

describe('smallForThisPhone', () => {
  const cases = decodingAnswers.flatMap(({ answer, hardwareHevc }) =>
    OPUS_ANSWERS.map((opus) => ({
      answer,
      opus,
      expected: hardwareHevc && opus !== '' ? 'small-hevc' : 'small',
    })),
  );

  it('covers every answer the browser can give: 10 decoder answers × 3 Opus answers', () => {
    expect(cases).toHaveLength(30);
    expect(cases.filter((c) => c.expected === 'small-hevc')).toHaveLength(4);
  });

  it.each(cases)('decodingInfo $answer with Opus "$opus" → $expected', ({ answer, opus, expected }) => {
    expect(smallForThisPhone({ decoding: answer, opus })).toBe(expected);
  });
});

/** `capableSmall` against a stand-in browser: a fresh module each time, since the answer is kept for the page's life. */
describe('capableSmall', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    vi.resetModules();
  });

  function phone(decodingInfo: unknown, opus: string) {
    const canPlayType = vi.fn(() => opus);
    vi.stubGlobal('navigator', decodingInfo === undefined ? {} : { mediaCapabilities: { decodingInfo } });
    vi.stubGlobal('document', { createElement: () => ({ canPlayType }) });
    return { canPlayType };
  }

  async function fresh() {
    vi.resetModules();
    return import('./hevc-support.ts');
  }

  it('asks the decoder about the HEVC Small exactly as it is made, and the Opus sound, once per page', async () => {
    const decodingInfo = vi.fn(async () => ({ supported: true, smooth: true, powerEfficient: true }));
    const { canPlayType } = phone(decodingInfo, 'probably');
    const { capableSmall, knownCapableSmall } = await fresh();
    expect(knownCapableSmall()).toBeNull();
    expect(await capableSmall()).toBe('small-hevc');
    expect(await capableSmall()).toBe('small-hevc');
    expect(knownCapableSmall()).toBe('small-hevc');
    expect(decodingInfo).toHaveBeenCalledTimes(1);
    expect(decodingInfo).toHaveBeenCalledWith({
      type: 'file',
      video: {
        contentType: `video/mp4; codecs="${SMALL_HEVC_DECODING.videoCodec}"`,
        width: 640,
        height: 360,
        bitrate: 296_000,
        framerate: 30,
      },
      audio: { contentType: 'audio/mp4; codecs="opus"' },
    });
    expect(canPlayType).toHaveBeenCalledWith('audio/mp4; codecs="opus"');
  });

  it('takes the H.264 Small without MediaCapabilities, when it throws, and when it does not answer within a second', async () => {
    phone(undefined, 'probably');
    expect(await (await fresh()).capableSmall()).toBe('small');

    phone(
      vi.fn(async () => {
        throw new TypeError('unsupported configuration');
      }),
      'probably',
    );
    expect(await (await fresh()).capableSmall()).toBe('small');

    vi.useFakeTimers();
    phone(
      vi.fn(() => new Promise(() => undefined)),
      'probably',
    );
    const hung = (await fresh()).capableSmall();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await hung).toBe('small');
  });

  it('takes the H.264 Small when the decoder is there but Opus in MP4 is not', async () => {
    phone(
      vi.fn(async () => ({ supported: true, smooth: true, powerEfficient: true })),
      '',
    );
    expect(await (await fresh()).capableSmall()).toBe('small');
  });

  it('tells those waiting once the answer is known', async () => {
    phone(
      vi.fn(async () => ({ supported: true, smooth: false, powerEfficient: false })),
      'maybe',
    );
    const { onCapableSmallKnown, knownCapableSmall } = await fresh();
    const heard = await new Promise<string | null>((resolve) => {
      const stop = onCapableSmallKnown(() => {
        stop();
        resolve(knownCapableSmall());
      });
    });
    expect(heard).toBe('small');
  });
});

describe('playsHere', () => {
  it('refuses only the HEVC Small, and only on a phone without the hardware decoder', async () => {
    const { playsHere } = await import('./hevc-support.ts');
    expect(playsHere('small-hevc', 'small')).toBe(false);
    expect(playsHere('small-hevc', 'small-hevc')).toBe(true);
    for (const size of ['small', 'standard', 'hd', 'original'] as const) {
      expect(playsHere(size, 'small')).toBe(true);
      expect(playsHere(size, 'small-hevc')).toBe(true);
    }
  });
});
