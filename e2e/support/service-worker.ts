import type { Page } from 'playwright-core';

/** Waits for the service worker to be active, then reloads so it controls the page (as on a second visit). */
export async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** The saved session as the PWA keeps it in localStorage (null when signed out). */
export async function savedSession(
  page: Page,
): Promise<{ token: string; kind: string; profile: { fullName?: string; id: string } | null } | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('filamu.session');
    return raw ? (JSON.parse(raw) as { token: string; kind: string; profile: { id: string } | null }) : null;
  });
}
