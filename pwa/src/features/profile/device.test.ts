import { describe, expect, it } from 'vitest';
import { deviceName, lastActive, sessionSummary } from './device.ts';

const now = new Date('2026-11-22T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('device wording', () => {
  it('names the browser and system', () => {
    expect(deviceName({ browser: 'Chrome', system: 'Android' })).toBe('Chrome on Android');
    expect(deviceName({ browser: 'Unknown browser', system: null })).toBe('Unknown browser');
  });

  it('says how long ago the session was used', () => {
    expect(lastActive(ago(0), now)).toBe('just now');
    expect(lastActive(ago(4 * 60_000), now)).toBe('just now');
    expect(lastActive(ago(12 * 60_000), now)).toBe('12 minutes ago');
    expect(lastActive(ago(60 * 60_000), now)).toBe('1 hour ago');
    expect(lastActive(ago(2.5 * 3_600_000), now)).toBe('2 hours ago');
    expect(lastActive('2026-11-20T08:00:00.000Z', now)).toBe('on 20 Nov 2026');
  });

  it('sums it up as the Security tab shows it', () => {
    expect(sessionSummary({ signedInAt: '2026-11-20T08:00:00.000Z', lastActiveAt: ago(2 * 3_600_000) }, now)).toBe(
      'Signed in since 20 Nov 2026, last active 2 hours ago',
    );
  });
});
