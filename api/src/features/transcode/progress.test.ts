import { describe, expect, it } from 'vitest';
import { type EncodeProgress, ProgressParser } from './progress.ts';

describe('ffmpeg -progress parsing', () => {
  it('turns blocks into a fraction and seconds left, across split chunks, and ends at 1', () => {
    const seen: EncodeProgress[] = [];
    const parser = new ProgressParser(100, (p) => seen.push(p));
    parser.push('frame=10\nout_time_us=25000000\nspe');
    parser.push('ed=2.5x\nprogress=continue\n');
    parser.push('out_time_us=N/A\nspeed=N/A\nprogress=continue\n');
    parser.push('out_time_us=100000000\nprogress=end\n');
    expect(seen).toEqual([
      { fraction: 0.25, etaSeconds: 30, done: false },
      // A block without a usable time or speed keeps the last time and says the time left is unknown.
      { fraction: 0.25, etaSeconds: null, done: false },
      { fraction: 1, etaSeconds: 0, done: true },
    ]);
  });

  it('never reports done before the end, and knows nothing without a duration', () => {
    const seen: EncodeProgress[] = [];
    const parser = new ProgressParser(0, (p) => seen.push(p));
    parser.push('out_time_us=5000000\nspeed=1x\nprogress=continue\n');
    expect(seen).toEqual([{ fraction: 0, etaSeconds: null, done: false }]);
    const capped: EncodeProgress[] = [];
    new ProgressParser(4, (p) => capped.push(p)).push('out_time_us=4200000\nprogress=continue\n');
    expect(capped[0]!.fraction).toBe(0.99);
  });
});
