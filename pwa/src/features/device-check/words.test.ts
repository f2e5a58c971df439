import type { DeviceCheckAnswers, RenditionAnswer } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { decoderWords, verdictWords } from './words.ts';

const answer = (decoding: RenditionAnswer['decoding'], audioCanPlay: RenditionAnswer['audioCanPlay'] = 'probably') =>
  ({ decoding, videoCanPlay: 'probably', audioCanPlay, played: 'not-tried' }) satisfies RenditionAnswer;
const hardware = answer({ supported: true, smooth: true, powerEfficient: true });
const software = answer({ supported: true, smooth: true, powerEfficient: false });
const none = answer({ supported: false, smooth: false, powerEfficient: false });
const withHevc = (hevc: RenditionAnswer): DeviceCheckAnswers => ({
  small: hardware,
  'small-hevc': hevc,
  standard: hardware,
  hd: hardware,
});

describe('what the device check says', () => {
  it('tells the operator which Small the phone will get, and why not HEVC', () => {
    const say = (hevc: RenditionAnswer) => verdictWords('small-hevc', hevc, withHevc(hevc));
    expect(say(hardware)).toBe('Plays, in hardware — Filamu will give this phone the small HEVC files.');
    expect(say(software)).toMatch(/^Plays only in software.*H\.264 Small\.$/);
    expect(say(answer(hardware.decoding, ''))).toMatch(/not its Opus sound.*H\.264 Small\.$/);
    expect(say(none)).toBe('Does not play — Filamu will give this phone the H.264 Small.');
    expect(say(answer(null))).toBe('Does not play — Filamu will give this phone the H.264 Small.');
  });

  it('says how an H.264 size plays, and when the browser cannot say', () => {
    const say = (small: RenditionAnswer) => verdictWords('small', small, { ...withHevc(none), small });
    expect(say(hardware)).toBe('Plays, in hardware.');
    expect(say(software)).toMatch(/^Plays, in software/);
    expect(say(none)).toBe('Does not play on this phone.');
    expect(say(answer(null))).toBe('Should play (this browser cannot say how well).');
    expect(decoderWords(null)).toBe('Not available: this browser cannot say');
  });
});
