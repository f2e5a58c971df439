import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoMovie } from '../api/demo/media/index.ts';
import type { AdminMovie } from '../shared/src/schemas/admin-movies.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import { isComplete, tapDownload, waitForRecord } from './support/downloads.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';
import {
  adminSession,
  createPlan,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
} from './support/seed.ts';

/**
 * Subtitles end to end (decisions 0172, 0173): an admin attaches an SRT file in the console — it waits for Save, and
 * Cancel drops it (a broken one is refused on Save with the server's words); a subscriber downloads the film, goes offline, and the player has the track, shows its
 * cue when chosen and remembers the choice.
 */
let browser: Browser;
let clip: Buffer;

const SRT = '1\r\n00:00:00,000 --> 00:00:05,000\r\nOli otya, <font color="red">munnange</font>?\r\n\r\n';

beforeAll(async () => {
  browser = await launchBrowser();
  clip = generateDemoMovie({
    title: 'Boda Ride',
    palette: [
      [20, 90, 60],
      [200, 160, 40],
    ],
    seconds: 6,
  }).bytes;
});

afterAll(async () => {
  await browser?.close();
});

/** The subtitle tracks this phone holds for the download of `movieId` (IndexedDB, as the Play screen reads them). */
function storedTracks(page: Page, movieId: string) {
  return page.evaluate(
    (id) =>
      new Promise<{ language: string; label: string; vtt: string }[] | null>((resolve, reject) => {
        const open = indexedDB.open('filamu-downloads');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('subtitles')) return resolve(null);
          const all = db.transaction('subtitles').objectStore('subtitles').getAll();
          all.onsuccess = () => {
            const found = (
              all.result as { key: string; tracks: { language: string; label: string; vtt: string }[] }[]
            ).find((r) => r.key.endsWith(`:${id}`));
            db.close();
            resolve(found?.tracks ?? null);
          };
        };
      }),
    movieId,
  );
}

/** A subscriber's phone, signed in once: later loads keep the profile the app saved, as a real phone does offline. */
async function phoneOf(planId: string): Promise<BrowserContext> {
  const user = await registerUser();
  await subscribeUser(user.id, planId);
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 360, height: 780 } });
  await context.addInitScript(
    ({ token, deviceId }) => {
      if (localStorage.getItem('filamu.session')) return;
      localStorage.setItem('filamu.session', JSON.stringify({ token, kind: 'user' }));
      localStorage.setItem('filamu.deviceId', deviceId);
    },
    { token: user.token, deviceId: user.deviceId },
  );
  return context;
}

async function uploadClip(planId: string) {
  const title = `Boda Ride ${uniqueStamp()}`;
  const { id } = await uploadMovie(clip, {
    title,
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    rating: '13',
    planIds: [planId],
    thumbnail: posterPng(title),
  });
  return { id, title };
}

describe('subtitles', () => {
  it('are attached in the console, travel with the download and play offline, remembered', async () => {
    const plan = await createPlan();
    const { id, title } = await uploadClip(plan.id);

    const adminContext = await browser.newContext({ baseURL: baseURL(), viewport: { width: 360, height: 780 } });
    await signInContext(adminContext, await adminSession());
    const phoneContext = await phoneOf(plan.id);
    try {
      const admin = await adminContext.newPage();
      await admin.goto('/admin/movies');
      await admin.getByRole('heading', { level: 1, name: 'Movies' }).waitFor();
      await admin.getByRole('button', { name: `Edit ${title}` }).click();
      const dialog = admin.getByRole('dialog', { name: 'Edit movie' });
      await dialog.getByText('No subtitles yet.').waitFor();
      const serverLanguages = async () => {
        const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', await adminSession());
        return movies.find((m) => m.id === id)!.subtitles.map((s) => s.language);
      };
      const chooseFile = (name: string, text: string) =>
        dialog.getByLabel('File (.srt or .vtt)').setInputFiles({
          name,
          mimeType: 'application/x-subrip',
          buffer: Buffer.from(text),
        });
      const attached = dialog.getByRole('list', { name: 'Attached subtitles' });

      // Choosing a file only stages it: Cancel drops it, and the movie has no subtitles.
      await dialog.getByLabel('Language', { exact: true }).selectOption('lg');
      await chooseFile('boda.srt', SRT);
      await attached.getByText('Added when you save').waitFor();
      await dialog.getByRole('status').filter({ hasText: 'Luganda subtitles will be added when you save.' }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await serverLanguages()).toEqual([]);
      await admin.getByRole('button', { name: `Edit ${title}` }).click();
      await dialog.getByText('No subtitles yet.').waitFor();

      // A file that is not subtitles: staged, then refused on Save with the server's words; nothing is attached.
      await dialog.getByLabel('Language', { exact: true }).selectOption('lg');
      await chooseFile('notes.srt', 'Shopping list\nmatooke\n');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Luganda subtitles (notes.srt) were not saved' }).waitFor();
      await dialog.getByRole('alert').filter({ hasText: 'no cues' }).waitFor();
      expect(await serverLanguages()).toEqual([]);

      // Drop it, choose the right file and Save: attached.
      await dialog.getByRole('button', { name: 'Remove Luganda subtitles' }).click();
      await dialog.getByText('No subtitles yet.').waitFor();
      await chooseFile('boda.srt', SRT);
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await serverLanguages()).toEqual(['lg']);

      // A removal waits for Save too: Cancel keeps the subtitles.
      await admin.getByRole('button', { name: `Edit ${title}` }).click();
      await attached.getByText(/^Luganda \(lg\)/).waitFor();
      await dialog.getByRole('button', { name: 'Remove Luganda subtitles' }).click();
      await attached.getByText('Removed when you save').waitFor();
      await dialog.getByRole('button', { name: 'Undo, keep the current Luganda subtitles' }).waitFor();
      expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(admin, 'Edit movie dialog with subtitles (360 px)');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await serverLanguages()).toEqual(['lg']);

      const phone = await phoneContext.newPage();
      await phone.goto('/dashboard');
      await tapDownload(phone, id);
      await waitForRecord(phone, id, isComplete);
      await controlledByServiceWorker(phone);
      // The subtitle file came down with the film, converted to WebVTT and cleaned of the <font> tag.
      await expect.poll(() => storedTracks(phone, id), { timeout: 15_000 }).not.toBeNull();
      const tracks = (await storedTracks(phone, id))!;
      expect(tracks.map((t) => t.language)).toEqual(['lg']);
      expect(tracks[0]!.vtt).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nOli otya, munnange?\n');

      await phoneContext.setOffline(true);
      await phone.goto(`/downloads/${id}/play`);
      await phone.locator('video').waitFor();
      const menu = phone.getByLabel('Subtitles');
      await menu.waitFor();
      expect(await menu.locator('option').allTextContents()).toEqual(['Subtitles off', 'Luganda']);
      expect(await menu.inputValue()).toBe('');
      await menu.selectOption({ label: 'Luganda' });

      // The track is shown and its cue is the one on screen at 0:01.
      await phone.locator('video').evaluate((v: HTMLVideoElement) => (v.currentTime = 1));
      await phone.waitForFunction(() => {
        const track = document.querySelector('video')?.textTracks[0];
        return track?.mode === 'showing' && (track.activeCues?.length ?? 0) > 0;
      });
      const shown = await phone.locator('video').evaluate((v: HTMLVideoElement) => ({
        mode: v.textTracks[0]!.mode,
        language: v.textTracks[0]!.language,
        label: v.textTracks[0]!.label,
        cue: (v.textTracks[0]!.activeCues![0] as VTTCue).text,
      }));
      expect(shown).toEqual({ mode: 'showing', language: 'lg', label: 'Luganda', cue: 'Oli otya, munnange?' });
      await expectAccessible(phone, 'Player with subtitles (offline, 360 px)');

      // Remembered on this phone: the next time the player opens (still offline), Luganda is on.
      await phone.reload();
      await phone.getByLabel('Subtitles').waitFor();
      expect(await phone.getByLabel('Subtitles').inputValue()).toBe('lg');
      await phone.waitForFunction(() => document.querySelector('video')?.textTracks[0]?.mode === 'showing');

      await phone.getByLabel('Subtitles').selectOption({ label: 'Subtitles off' });
      await phone.waitForFunction(() => document.querySelector('video')?.textTracks[0]?.mode === 'disabled');
    } finally {
      await adminContext.close();
      await phoneContext.close();
    }
  });
  it('reach a film downloaded before they were attached, the next time Play opens online', async () => {
    const plan = await createPlan();
    const { id } = await uploadClip(plan.id);
    const phoneContext = await phoneOf(plan.id);
    try {
      const phone = await phoneContext.newPage();
      await phone.goto('/dashboard');
      await tapDownload(phone, id);
      await waitForRecord(phone, id, isComplete);
      await controlledByServiceWorker(phone);
      await phone.goto(`/downloads/${id}/play`);
      await phone.locator('video').waitFor();
      expect(await phone.getByLabel('Subtitles').count()).toBe(0);

      const { token, deviceId } = await adminSession();
      const response = await fetch(`${baseURL()}/api/admin/movies/${id}/subtitles/sw`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'X-Device-Id': deviceId, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'WEBVTT\n\n00:00.000 --> 00:05.000\nHabari yako\n' }),
      });
      expect(response.status).toBe(200);

      await phone.reload();
      await phone.getByLabel('Subtitles').selectOption({ label: 'Swahili' });
      await expect
        .poll(() => storedTracks(phone, id))
        .toEqual([{ language: 'sw', label: 'Swahili', vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nHabari yako\n' }]);
      // Kept for offline: the player has it with no connection.
      await phoneContext.setOffline(true);
      await phone.reload();
      await phone.waitForFunction(() => {
        const track = document.querySelector('video')?.textTracks[0];
        return track?.mode === 'showing' && track.cues?.[0] !== undefined;
      });
      expect(
        await phone.locator('video').evaluate((v: HTMLVideoElement) => (v.textTracks[0]!.cues![0] as VTTCue).text),
      ).toBe('Habari yako');
    } finally {
      await phoneContext.close();
    }
  });
});
