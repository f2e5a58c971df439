import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser, newUser, useServer } from './support/browser.ts';
import { type BuiltServer, startBuiltServer } from './support/server.ts';
import { registerUser } from './support/seed.ts';
import { codeFromSimulator, confirmPhone, simulatorTexts } from './support/sms.ts';

/**
 * A neighbour behind a carrier address that a flooder has pushed over its ceiling (decisions 0194, 0195): the app
 * solves the server's proof of work by itself, says "Checking your connection…", and the recovery goes through. Its
 * own server trusts X-Forwarded-For, so the test can put the browser and the flooder behind one address.
 */
const NAT = '100.64.7.9';
const CEILING = 300;

let server: BuiltServer;
let browser: Browser;

beforeAll(async () => {
  server = await startBuiltServer(undefined, { TRUST_PROXY: 'true' });
  useServer(server);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  useServer(null);
  await server?.stop();
});

const post = (path: string, body: unknown, ip: string) =>
  fetch(`${baseURL()}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip, 'X-Device-Id': randomUUID() },
    body: JSON.stringify(body),
  });

describe('a busy carrier address', () => {
  it('recovers a neighbour’s account through the proof of work, with no tap and a visible status', async () => {
    // The flooder: three wrong codes for each of 100 real accounts, from the shared address.
    const victims: string[] = [];
    for (let i = 0; i < CEILING / 3; i += 10) {
      const batch = Array.from({ length: 10 }, () => newUser());
      const answers = await Promise.all(batch.map((user, j) => post('/auth/register', user, `10.9.${i}.${j + 1}`)));
      expect(answers.map((res) => res.status)).toEqual(batch.map(() => 201));
      victims.push(...batch.map((user) => user.phone));
    }
    for (let i = 0; i < CEILING; i += 30) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, j) =>
          post(
            '/auth/recovery/reset',
            { identifier: victims[(i + j) % victims.length], code: '000000', newPassword: 'whatever 2026' },
            NAT,
          ),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(answers.map(() => 400));
    }
    const asked = await post(
      '/auth/recovery/reset',
      { identifier: victims[0], code: '000000', newPassword: 'whatever 2026' },
      NAT,
    );
    expect(asked.status).toBe(429);
    expect(((await asked.json()) as { error: { code: string } }).error.code).toBe('proof_required');

    // The neighbour, on a slow phone behind the same address.
    // Recovery codes go only to a confirmed number (decision 0197): the neighbour confirmed theirs.
    const neighbour = await registerUser();
    await confirmPhone(neighbour);
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 360, height: 740 },
      extraHTTPHeaders: { 'X-Forwarded-For': NAT },
    });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      // The confirm step's code went to the same number first: the recovery code is the text after it.
      const canonical = `256${neighbour.phone.slice(1)}`;
      const before = new Set((await simulatorTexts(canonical)).map((m) => m.messageId));
      await page.goto('/forgot-password');
      await page.getByLabel('Phone number or email').fill(neighbour.phone);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
      const code = await codeFromSimulator(canonical, before);
      await page.getByLabel('6-digit code').fill(code);
      await page.getByLabel('New password', { exact: true }).fill('a new movie night 2026');
      // What the live regions say, recorded as it changes: a lucky proof can be found in a few milliseconds, too
      // briefly for a locator to see on screen, but a screen reader is told all the same.
      await page.evaluate(() => {
        const said: string[] = [];
        (window as unknown as { statusesSaid: string[] }).statusesSaid = said;
        new MutationObserver(() => {
          for (const status of document.querySelectorAll('[role="status"]')) {
            const text = status.textContent?.trim();
            if (text && said.at(-1) !== text) said.push(text);
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByRole('button', { name: 'Save and sign in' }).click();
      // The check runs by itself and says so, in a live region; then the reset goes through.
      await page.waitForURL('**/dashboard', { timeout: 60_000 });
      // The sign-in is a navigation inside the app, so what the page recorded is still there to read.
      const said = await page.evaluate(() => (window as unknown as { statusesSaid: string[] }).statusesSaid);
      expect(said).toContain('Checking your connection…');
    } finally {
      await context.close();
    }
  }, 300_000);
});
