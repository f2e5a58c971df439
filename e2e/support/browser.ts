import { randomInt } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** The server under test, when set outside vitest (the download bench); otherwise vitest's global setup provides it. */
export interface ServerUnderTest {
  baseURL: string;
  adminEmail: string;
  adminPassword: string;
}

let serverOverride: ServerUnderTest | null = null;

/** Points the support helpers at this server instead of vitest's `inject` (for scripts run without vitest). */
export function useServer(server: ServerUnderTest | null): void {
  serverOverride = server;
}

export function baseURL(): string {
  if (serverOverride) return serverOverride.baseURL;
  const servers = inject('baseURLs');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return servers[(worker - 1) % servers.length]!;
}

/** The admin the server was started with. */
export function adminCredentials(): { email: string; password: string } {
  if (serverOverride) return { email: serverOverride.adminEmail, password: serverOverride.adminPassword };
  return { email: inject('adminEmail'), password: inject('adminPassword') };
}

export async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseURL(), viewport: { width: 390, height: 844 } });
}

let counter = 0;

/** A unique, valid registration. */
export function newUser() {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}`;
  // 077 + 7 digits: a valid Uganda mobile number (product §5), random per user.
  const digits = String(randomInt(0, 10_000_000)).padStart(7, '0');
  return {
    fullName: `Test User ${stamp}`,
    email: `user-${stamp}@filamu.test`,
    phone: `077${digits}`,
    password: 'movie-night-2026',
  };
}

/** Fills the register form, submits it, and skips the phone confirm step (decision 0197) unless told not to. */
export async function register(
  page: Page,
  user: ReturnType<typeof newUser>,
  { skipConfirm = true }: { skipConfirm?: boolean } = {},
): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Full Name').fill(user.fullName);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Phone Number').fill(user.phone);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  if (skipConfirm) await page.getByRole('button', { name: 'Skip for now' }).click();
}

/** Fills the login form (user or agent mode) and submits it. */
export async function login(
  page: Page,
  identifier: string,
  password: string,
  mode: 'user' | 'agent' = 'user',
): Promise<void> {
  await page.goto('/login');
  if (mode === 'agent') await page.getByRole('radio', { name: 'Agent Login' }).click();
  await page.getByLabel(mode === 'agent' ? 'Agent email' : 'Email or phone').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: mode === 'agent' ? 'Sign in as Agent' : 'Sign In', exact: true }).click();
}
