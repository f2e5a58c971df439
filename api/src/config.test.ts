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

describe('payments in production', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('refuse to start without a DPO account, naming both ways out', () => {
    const found = problems({ NODE_ENV: 'production', ALLOW_SMS_SIMULATOR: 'true', DPO_COMPANY_TOKEN: '' });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^DPO_COMPANY_TOKEN: /);
    expect(found[0]).toContain('DPO_COMPANY_TOKEN and DPO_SERVICE_TYPE');
    expect(found[0]).toContain('ALLOW_PAYMENT_SANDBOX=true');
    // Listed with every other problem, not instead of them.
    expect(problems({ NODE_ENV: 'production', ALLOW_SMS_SIMULATOR: 'true', PORT: 'eighty' })).toEqual([
      expect.stringMatching(/^PORT: /),
      expect.stringMatching(/^DPO_COMPANY_TOKEN: /),
    ]);
  });

  it('run the sandbox in production only when ALLOW_PAYMENT_SANDBOX says so', () => {
    expect(
      problems({ NODE_ENV: 'production', ALLOW_SMS_SIMULATOR: 'true', ALLOW_PAYMENT_SANDBOX: 'false' }),
    ).toHaveLength(1);
    const config = loadConfig({ NODE_ENV: 'production', ALLOW_SMS_SIMULATOR: 'true', ALLOW_PAYMENT_SANDBOX: 'true' });
    expect(config.payments.dpoCompanyToken).toBeNull();
  });

  it('need no flag with a DPO account, nor outside production', () => {
    const real = loadConfig({
      NODE_ENV: 'production',
      ALLOW_SMS_SIMULATOR: 'true',
      DPO_COMPANY_TOKEN: 'TOKEN-1',
      DPO_SERVICE_TYPE: '5525',
      DPO_NOTIFY_SECRET: 'notify-secret-0123456789',
    });
    expect(real.payments.dpoCompanyToken).toBe('TOKEN-1');
    expect(loadConfig({ NODE_ENV: 'development' }).payments.dpoCompanyToken).toBeNull();
    expect(loadConfig({}).payments.dpoCompanyToken).toBeNull();
  });
});

describe('SMS in production', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ NODE_ENV: 'production', ALLOW_PAYMENT_SANDBOX: 'true', ...env });
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('refuse the simulator without ALLOW_SMS_SIMULATOR, naming both ways out', () => {
    const found = problems({});
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^AT_API_KEY: /);
    expect(found[0]).toContain('ALLOW_SMS_SIMULATOR=true');
    expect(problems({ ALLOW_SMS_SIMULATOR: 'true' })).toEqual([]);
    expect(loadConfig({}).sms.africasTalking).toBeNull();
  });

  it("take an Africa's Talking account with its callback secret, and both halves of it together", () => {
    expect(problems({ AT_API_KEY: 'key' })).toEqual([
      expect.stringMatching(/^AT_USERNAME: /),
      expect.stringMatching(/^SMS_DELIVERY_REPORT_SECRET: /),
    ]);
    const env = { AT_API_KEY: 'key', AT_USERNAME: 'filamu', SMS_DELIVERY_REPORT_SECRET: 'report-secret-0123456789' };
    expect(problems(env)).toEqual([]);
    expect(loadConfig({ ...env, NODE_ENV: 'production', ALLOW_PAYMENT_SANDBOX: 'true' }).sms.africasTalking).toEqual({
      username: 'filamu',
      apiKey: 'key',
      senderId: null,
      url: 'https://api.africastalking.com/version1/messaging',
    });
  });
});
