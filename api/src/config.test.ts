import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('shutdown and HTTP timeout settings', () => {
  it('default to a 25 s drain, no unready delay and limits that fit slow uploads', () => {
    const config = loadConfig({});
    expect(config.shutdown).toEqual({ drainMs: 25_000, unreadyDelayMs: 0 });
    expect(config.http).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 1_800_000,
      keepAliveTimeoutMs: 65_000,
      idleTimeoutMs: 120_000,
    });
  });

  it('refuse a headers timeout that is not below the request timeout', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '60000' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS/);
  });
});

describe('DPO settings', () => {
  const account = { DPO_COMPANY_TOKEN: 'company-token', DPO_SERVICE_TYPE: '5525' };

  it('require the notify secret with a real account: its push settles real payments', () => {
    expect(() => loadConfig(account)).toThrow(/DPO_NOTIFY_SECRET is required when DPO_COMPANY_TOKEN is set/);
    expect(loadConfig({ ...account, DPO_NOTIFY_SECRET: 'notify-secret-0123456789' }).payments.notifySecret).toBe(
      'notify-secret-0123456789',
    );
  });

  it('keep sandbox mode working without one', () => {
    expect(loadConfig({}).payments).toMatchObject({ dpoCompanyToken: null, notifySecret: null });
  });
});
