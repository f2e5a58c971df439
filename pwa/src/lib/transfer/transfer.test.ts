import { describe, expect, it } from 'vitest';
import { backoffMs, DOWNLOAD_RETRY, UPLOAD_RETRY } from './backoff.ts';
import { readErrorEnvelope, readErrorEnvelopeText } from './error-envelope.ts';
import { SpeedMeter } from './speed-meter.ts';

describe('backoffMs', () => {
  it('doubles from 1 s to the download cap, between half and the whole', () => {
    expect(backoffMs(1, DOWNLOAD_RETRY, () => 1)).toBe(1000);
    expect(backoffMs(1, DOWNLOAD_RETRY, () => 0)).toBe(500);
    expect(backoffMs(4, DOWNLOAD_RETRY, () => 1)).toBe(8000);
    expect(backoffMs(30, DOWNLOAD_RETRY, () => 1)).toBe(60_000);
    expect(backoffMs(30, DOWNLOAD_RETRY, () => 0)).toBe(30_000);
  });

  it('spreads upload parts ±20 % around a 30 s cap', () => {
    expect(backoffMs(1, UPLOAD_RETRY, () => 0.5)).toBe(1000);
    expect(backoffMs(20, UPLOAD_RETRY, () => 1)).toBe(36_000);
    expect(backoffMs(20, UPLOAD_RETRY, () => 0)).toBe(24_000);
  });
});

describe('SpeedMeter', () => {
  it('reads the rate over its window and never goes negative', () => {
    const meter = new SpeedMeter(1000);
    expect(meter.sample(0, 0)).toBe(0);
    expect(meter.sample(500, 50_000)).toBe(100_000);
    expect(meter.sample(3000, 50_000)).toBe(0);
    meter.reset();
    expect(meter.sample(4000, 10)).toBe(0);
  });
});

describe('readErrorEnvelope', () => {
  it('reads the envelope and tolerates anything else', () => {
    expect(readErrorEnvelope({ error: { code: 'not_found', message: 'Gone.', requestId: 'r1' } })).toEqual({
      code: 'not_found',
      message: 'Gone.',
      requestId: 'r1',
    });
    expect(readErrorEnvelope({ error: { code: 42 } })).toEqual({ code: 'unknown', message: null, requestId: null });
    expect(readErrorEnvelopeText('<html>Bad gateway</html>')).toEqual({
      code: 'unknown',
      message: null,
      requestId: null,
    });
  });
});
