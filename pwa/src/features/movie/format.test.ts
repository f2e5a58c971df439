import { describe, expect, it } from 'vitest';
import { formatDuration, formatEstimate, formatGb, formatSpeed, vjLabel, vjName } from './format.ts';

describe('formatGb', () => {
  it('divides by 1024³ and keeps two decimals', () => {
    expect(formatGb(1.5 * 1024 ** 3)).toBe('1.50 GB');
    expect(formatGb(1024 ** 3)).toBe('1.00 GB');
    expect(formatGb(734_003_200)).toBe('0.68 GB');
    expect(formatGb(3 * 1024 ** 3 + 5 * 1024 ** 2)).toBe('3.00 GB');
  });

  it('shows small files and bad input as 0.00 GB', () => {
    expect(formatGb(1052)).toBe('0.00 GB');
    expect(formatGb(0)).toBe('0.00 GB');
    expect(formatGb(-5)).toBe('0.00 GB');
    expect(formatGb(Number.NaN)).toBe('0.00 GB');
  });
});

describe('vjName', () => {
  it('never says VJ twice: a name with the prefix stays, a bare one gets it', () => {
    expect(vjName('VJ Ice P')).toBe('VJ Ice P');
    expect(vjName('Junior')).toBe('VJ Junior');
  });
});

describe('vjLabel', () => {
  it('keeps names that already say VJ', () => {
    expect(vjLabel('VJ Junior')).toBe('VJ Junior');
    expect(vjLabel('vj emmy')).toBe('vj emmy');
  });

  it('labels the others', () => {
    expect(vjLabel('N/A')).toBe('VJ: N/A');
    expect(vjLabel('Filamu Studio')).toBe('VJ: Filamu Studio');
    expect(vjLabel('  ')).toBe('VJ: N/A');
    // "VJay" is a name, not the prefix.
    expect(vjLabel('VJay')).toBe('VJ: VJay');
  });
});

describe('speeds and durations', () => {
  it('formats speeds in MB/s, slow links in KB/s', () => {
    expect(formatSpeed(1.25 * 1024 ** 2)).toBe('1.3 MB/s');
    expect(formatSpeed(50 * 1024)).toBe('50 KB/s');
    expect(formatSpeed(10)).toBe('1 KB/s');
  });

  it('rounds durations up to whole minutes', () => {
    expect(formatDuration(0)).toBe('less than a minute');
    expect(formatDuration(59)).toBe('less than a minute');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(61)).toBe('2 min');
    expect(formatDuration(2048)).toBe('35 min');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(3601)).toBe('1 h 1 min');
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3 h 5 min');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('unknown');
  });
});

describe('formatEstimate', () => {
  it('reads as a sentence start', () => {
    expect(formatEstimate(10)).toBe('Less than a minute');
    expect(formatEstimate(2048)).toBe('About 35 min');
    expect(formatEstimate(Number.POSITIVE_INFINITY)).toBe('Unknown');
  });
});
