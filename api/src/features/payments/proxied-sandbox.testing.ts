import { Hono } from 'hono';
import pino from 'pino';
import {
  type DatabaseKind,
  type TestApp,
  TestClock,
  createTestApp,
  freshDatabase,
  testConfig,
} from '../../../test/harness.ts';
import { subscriptionPlans } from '../../db/schema.ts';
import { type DpoSandbox } from './dpo/sandbox.ts';
import { listen, type Running } from '../../lib/loopback.testing.ts';
import { type FaultProxy, faultProxy } from './dpo/testing.ts';
import { SANDBOX_MOUNT, sandboxRuntime } from './gateway.ts';
import { stockPlan } from '../../../test/library.ts';

/**
 * Test support: an app whose real DPO adapter talks over loopback to a fault proxy in front of the sandbox, so every
 * call that left the app is counted (and can be made to fail). The sandbox settles only when asked.
 */
export interface ProxiedSandbox {
  t: TestApp;
  sandbox: DpoSandbox;
  proxy: FaultProxy;
  close(): Promise<void>;
}

export async function appBehindProxiedSandbox(
  kind: DatabaseKind,
  env: Record<string, string>,
  options: { sandboxPushes: boolean },
): Promise<ProxiedSandbox> {
  const clock = new TestClock();
  const database = await freshDatabase(kind);
  const upstream = new Hono();
  const runtime = { current: undefined as ReturnType<typeof sandboxRuntime> | undefined };
  upstream.all(`${SANDBOX_MOUNT}/*`, (c) => runtime.current!.sandbox!.app.fetch(c.req.raw));
  const sandboxServer: Running = await listen(upstream);
  const proxy = await faultProxy(sandboxServer.url);
  runtime.current = sandboxRuntime(testConfig(env).payments, clock, pino({ level: 'silent' }), {
    apiUrl: `${proxy.url}${SANDBOX_MOUNT}/`,
    database,
    settleIntervalMs: 0,
  });
  const payments = options.sandboxPushes ? runtime.current : { ...runtime.current, bindNotify: () => {} };
  const t = await createTestApp(kind, { database, clock, env, payments });
  const sandbox = runtime.current.sandbox!;
  return {
    t,
    sandbox,
    proxy,
    async close() {
      await sandbox.settle();
      await t.close();
      await proxy.close();
      await sandboxServer.close();
    },
  };
}

/** A plan of its own (a fresh name, 30 days left), so each test's payer starts clean. */
export async function insertPlan(t: TestApp, priceUgx: number) {
  const [plan] = await t.deps.database.db
    .insert(subscriptionPlans)
    .values({
      planName: `Plan ${Math.random().toString(36).slice(2, 7)}`,
      priceUgx,
      globalExpiryAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
    })
    .returning();
  await stockPlan(t.deps.database.db, plan!.id);
  return plan!;
}
