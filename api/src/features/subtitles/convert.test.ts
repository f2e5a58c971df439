import { SUBTITLE_MAX_BYTES, SUBTITLE_MAX_CUES } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { cleanCueLine, convertSubtitles, parseTimestamp } from './convert.ts';

function converted(text: string) {
  const result = convertSubtitles(text);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.problem)}`);
  return result;
}

function refusal(text: string) {
  const result = convertSubtitles(text);
  if (result.ok) throw new Error(`accepted: ${result.vtt}`);
  return result.problem;
}

const SRT =
  '1\n00:00:01,000 --> 00:00:04,500\nOli otya?\n\n2\n00:00:05,250 --> 00:00:07,000\nBulungi, <i>weebale</i>.\n';

describe('subtitle conversion', () => {
  it('turns SRT into WebVTT: dots in the times, numbers dropped', () => {
    const { vtt, from, cues, bytes } = converted(SRT);
    expect(from).toBe('srt');
    expect(cues).toBe(2);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:04.500\nOli otya?\n\n00:00:05.250 --> 00:00:07.000\nBulungi, <i>weebale</i>.\n',
    );
    expect(bytes).toBe(Buffer.byteLength(vtt));
  });

  it('reads CRLF, lone CR, a BOM and a file without its final blank line alike', () => {
    const expected = converted(SRT).vtt;
    expect(converted(`\uFEFF${SRT.replaceAll('\n', '\r\n')}`).vtt).toBe(expected);
    expect(converted(SRT.replaceAll('\n', '\r')).vtt).toBe(expected);
    expect(converted(SRT.trimEnd()).vtt).toBe(expected);
    expect(converted(`\n\n  \n${SRT}\n\n\n`).vtt).toBe(expected);
  });

  it('keeps WebVTT as WebVTT: header, notes and styles dropped, cue settings kept, short times widened', () => {
    const source = [
      'WEBVTT - Luganda',
      'Kind: captions',
      '',
      'NOTE made by hand',
      'over two lines',
      '',
      'STYLE',
      '::cue { color: red }',
      '',
      'intro',
      '00:01.000 --> 00:02.000 align:start line:90% onclick:evil',
      '<v Musa>Gyebale ko</v>',
      '',
      '100:00:00.000 --> 100:00:01.000',
      'A very long film',
    ].join('\n');
    const { vtt, from } = converted(source);
    expect(from).toBe('vtt');
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000 align:start line:90%\nGyebale ko\n\n' +
        '100:00:00.000 --> 100:00:01.000\nA very long film\n',
    );
  });

  it('reads three-digit hours and refuses four', () => {
    expect(parseTimestamp('123:04:05,678')).toBe(((123 * 60 + 4) * 60 + 5) * 1000 + 678);
    expect(parseTimestamp('1234:04:05,678')).toBeNull();
    for (const bad of ['00:60:00,000', '00:00:60.000', '0:0:1,000', '00:00:01,00', '00:00:01:000', 'aa:00:01,000']) {
      expect(parseTimestamp(bad), bad).toBeNull();
    }
  });

  it('sorts cues by start time', () => {
    const { vtt } = converted('00:00:05,000 --> 00:00:06,000\nSecond\n\n00:00:01,000 --> 00:00:02,000\nFirst\n');
    expect(vtt.indexOf('First')).toBeLessThan(vtt.indexOf('Second'));
  });

  it('keeps <i> <b> <u>, drops other tags and overrides, escapes the rest', () => {
    expect(cleanCueLine('<font color="#ff0">Yellow</font> <B>bold</B>')).toBe('Yellow <b>bold</b>');
    expect(cleanCueLine('<script>alert(1)</script>')).toBe('alert(1)');
    expect(cleanCueLine('{\\an8}Top line')).toBe('Top line');
    expect(cleanCueLine('1 < 2 & 3 > 2 -->')).toBe('1 &lt; 2 &amp; 3 &gt; 2 --&gt;');
    expect(cleanCueLine('Tom &amp; Jerry &nbsp;')).toBe('Tom &amp; Jerry &nbsp;');
    expect(cleanCueLine('<<i>x')).toBe('&lt;<i>x');
  });

  it('refuses binary, text that is not UTF-8, empty files and files without cues', () => {
    expect(refusal('\u0001\u0002ftypmp42')).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('binary'),
    });
    expect(refusal(`1\n00:00:01,000 --> 00:00:02,000\nNgend\uFFFD\n`)).toMatchObject({
      kind: 'invalid',
      line: 3,
      message: expect.stringContaining('UTF-8'),
    });
    expect(refusal('')).toMatchObject({ kind: 'invalid', message: expect.stringContaining('no cues') });
    expect(refusal('Just some words\nin a text file\n')).toMatchObject({ message: expect.stringContaining('no cues') });
    expect(refusal('WEBVTT\n\nNOTE only a note\n')).toMatchObject({ message: expect.stringContaining('no cues') });
  });

  it('refuses malformed times and cues that end before they start, naming the line', () => {
    expect(refusal('1\n00:00:1,000 --> 00:00:02,000\nHi\n')).toMatchObject({
      line: 2,
      message: expect.stringContaining('Line 2'),
    });
    expect(refusal('1\n00:00:05,000 --> 00:00:02,000\nHi\n')).toMatchObject({
      line: 2,
      message: expect.stringContaining('ends'),
    });
    expect(refusal('00:00:05,000 --> 00:00:05,000\nHi\n').kind).toBe('invalid');
  });

  it('refuses more cues than any film has, and files over the size limit', () => {
    const cue = (n: number) => `00:01.000-->00:02.000\n${n}\n`;
    const many = Array.from({ length: SUBTITLE_MAX_CUES + 1 }, (_, n) => cue(n)).join('\n');
    expect(many.length).toBeLessThan(SUBTITLE_MAX_BYTES);
    expect(refusal(many)).toMatchObject({ message: expect.stringContaining(String(SUBTITLE_MAX_CUES)) });
    expect(refusal('a'.repeat(SUBTITLE_MAX_BYTES + 1))).toEqual({ kind: 'too_large', bytes: SUBTITLE_MAX_BYTES + 1 });
    // Bytes, not characters: 200,000 three-byte letters are 600,000 bytes.
    expect(refusal('ŋ'.repeat(200_000) + '€'.repeat(100_000)).kind).toBe('too_large');
  });

  it('takes time in proportion to the text on inputs built to be slow', () => {
    const time = (text: string) => {
      const started = performance.now();
      convertSubtitles(text);
      return performance.now() - started;
    };
    const size = SUBTITLE_MAX_BYTES - 100;
    const shapes = [
      (n: number) => `00:00:01,000 --> 00:00:02,000\n${'<'.repeat(n)}`,
      (n: number) => `00:00:01,000 --> 00:00:02,000\n${'<a'.repeat(n / 2)}`,
      (n: number) => `00:00:01,000 --> 00:00:02,000\n${'{\\'.repeat(n / 2)}`,
      (n: number) => `00:00:01,000 --> 00:00:02,000\n${'&'.repeat(n)}`,
      (n: number) => '-->'.repeat(n / 3),
      (n: number) => '\n'.repeat(n),
      (n: number) => `WEBVTT\n\n00:01.000 --> 00:02.000 ${'a:'.repeat(n / 2)}\nx`,
    ];
    for (const shape of shapes) {
      const small = shape(size / 8);
      const large = shape(size);
      time(small); // warm up
      const smallMs = Math.max(time(small), 1);
      const largeMs = time(large);
      // Linear: 8× the text takes about 8× the time; quadratic would be 64× (and, at 512 KB, minutes: 2.7 × 10¹¹
      // steps). The floor keeps a busy shared machine's pauses from failing a linear run.
      expect(largeMs, shape.toString()).toBeLessThan(Math.max(smallMs * 30, 1500));
    }
  });
});
