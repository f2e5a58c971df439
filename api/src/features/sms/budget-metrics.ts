import type { SmsBudgetStatus } from '@filamu/shared';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ScrapeCollector } from '../metrics/registry.ts';
import type { SmsGateway } from './adapter.ts';
import { budgetStatus } from './budget.ts';

interface SmsBudgetMetricsParts {
  database: Database;
  clock: Clock;
  logger: Logger;
  /** Asked for its balance on scrape (the SMS budget alarm); absent in tests that build metrics alone. */
  smsGateway?: SmsGateway;
}

const BALANCE_READ_EVERY_MS = 5 * 60_000;

/**
 * The SMS budget on scrape (decision 0201), read from the database so every replica reports the same:
 * `filamu_sms_budget_sent{purpose,period}` and `filamu_sms_budget_ceiling{purpose,period}`, `filamu_sms_budget_alarm`
 * (1 when a purpose is past the operator's alarm share, or the balance below its threshold; `purpose="balance"`),
 * and `filamu_sms_gateway_balance_ugx`, asked of the gateway at most every 5 minutes. A balance that falls below the
 * threshold is logged once (warn) as it crosses.
 */
export function smsBudgetCollector(parts: SmsBudgetMetricsParts): ScrapeCollector {
  return (registry) => collectSmsBudget(parts, registry);
}

function collectSmsBudget(parts: SmsBudgetMetricsParts, registry: Registry): void {
  const { database, clock, logger, smsGateway } = parts;
  let balance: { value: string | null; readAt: number } | null = null;
  let wasLow = false;
  const readBalance = async () => {
    const now = clock.now().getTime();
    if (!smsGateway) return null;
    if (!balance || now - balance.readAt >= BALANCE_READ_EVERY_MS) {
      const state = await smsGateway.state();
      balance = { value: state.kind === 'ok' ? state.balance : null, readAt: now };
    }
    return balance.value;
  };
  // One read per scrape, whichever gauge asks first; a failed read drops the series (alert on their absence).
  let pending: Promise<SmsBudgetStatus | null> | null = null;
  const read = () =>
    (pending ??= (async () => {
      try {
        const status = await budgetStatus(database.db, clock.now(), await readBalance());
        if (status.balanceLow && !wasLow) {
          logger.warn(
            { balanceUgx: status.balanceUgx, thresholdUgx: status.setting.balanceAlarmUgx },
            'sms budget alarm: the gateway balance is below the threshold',
          );
        }
        wasLow = status.balanceLow;
        return status;
      } catch (error) {
        logger.warn({ err: error }, 'metrics: sms budget query failed');
        return null;
      }
    })().finally(() => setImmediate(() => (pending = null))));

  const perPeriod = (name: string, help: string, value: (w: SmsBudgetStatus['purposes'][number]['hour']) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['purpose', 'period'],
      registers: [registry],
      async collect() {
        const status = await read();
        this.reset();
        for (const p of status?.purposes ?? []) {
          for (const period of ['hour', 'day'] as const) this.set({ purpose: p.purpose, period }, value(p[period]));
        }
      },
    });
  perPeriod(
    'filamu_sms_budget_sent',
    'Texts taken from the SMS budget this hour and this (Kampala) day.',
    (w) => w.sent,
  );
  perPeriod('filamu_sms_budget_ceiling', "The operator's SMS ceilings, by purpose and period.", (w) => w.ceiling);
  new Gauge({
    name: 'filamu_sms_budget_alarm',
    help: 'SMS budget alarm: 1 when a purpose is past the alarm share of a ceiling, or (purpose="balance") the balance is low.',
    labelNames: ['purpose'],
    registers: [registry],
    async collect() {
      const status = await read();
      this.reset();
      if (!status) return;
      for (const p of status.purposes) this.set({ purpose: p.purpose }, p.alarm ? 1 : 0);
      this.set({ purpose: 'balance' }, status.balanceLow ? 1 : 0);
    },
  });
  new Gauge({
    name: 'filamu_sms_gateway_balance_ugx',
    help: 'The SMS gateway balance in UGX as it last reported it (absent when it did not say).',
    registers: [registry],
    async collect() {
      const status = await read();
      this.reset();
      if (status?.balanceUgx != null) this.set(status.balanceUgx);
    },
  });
}
