import type { Browser, Page } from 'playwright-core';
import { generateDemoMovie } from '../api/demo/media/index.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatBytes } from '../shared/src/format.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  browserSession,
  isComplete,
  licenceOnPhone,
  localRecord,
  movieBytes,
  opfsSha256,
  putLocalDownload,
  readRecord,
  sha256,
  subscriberPage,
  tapDownload,
  waitForRecord,
} from './support/downloads.ts';
import { createPlan, uploadMovie } from './support/seed.ts';
import { FaultProxy } from './support/fault-proxy.ts';

/**
 * The download manager in a real Chromium against the built app, with a fault-injecting server in front of it
 * (the browser loads everything through it; only movie files misbehave). Criteria of
 * docs/reference/download-platform.md §8.
 */
const MiB = 1024 * 1024;
const COMMIT_INTERVAL = MiB;

let browser: Browser;
let proxy: FaultProxy;
let origin: string;
let planId: string;
let counter = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  proxy = new FaultProxy({ upstream: baseURL() });
  origin = await proxy.listen();
  planId = (await createPlan()).id;
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
});

beforeEach(() => proxy.reset());

function stamp(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

async function movie(bytes: Buffer, title = `Movie ${stamp()}`) {
  const { id } = await uploadMovie(bytes, { title, category: 'Kinayuganda', planIds: [planId] });
  return { id, title, bytes };
}

/** A subscriber signed in through the proxy on a phone-sized screen. */
const subscriber = () => subscriberPage(browser, origin, planId);

const complete = isComplete;

describe('download manager', () => {
  it('finishes byte-exact through three dropped connections without a tap, re-fetching at most a commit per drop', async () => {
    const { id, bytes } = await movie(movieBytes(24 * MiB + 4321));
    const { context, page } = await subscriber();
    try {
      proxy.faults.push({ dropAfter: 5 * MiB }, { dropAfter: 3 * MiB + 77 }, { dropAfter: 6 * MiB });
      await tapDownload(page, id);
      await waitForRecord(page, id, complete);

      expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
      // The film's licence came with its first link, and its key opens with this phone's own key only.
      expect(await licenceOnPhone(page, id)).toEqual({ way: 'download', opens: true, extractable: false });
      const files = proxy.log;
      expect(files.map((f) => f.dropped)).toEqual([true, true, true, false]);
      expect(files[0]!.range).toBeNull();
      for (const follow of files.slice(1)) expect(follow.range).toMatch(/^bytes=[1-9]\d*-$/);
      // What the phone received twice: at most one commit interval per drop (bytes lost in flight when a
      // connection dies never reached it).
      const record = await readRecord(page, id);
      expect(record!.bytesFromNetwork).toBeLessThanOrEqual(bytes.length + 3 * COMMIT_INTERVAL);
      await page.goto(`/movies/${id}`);
      await page.getByText('On this phone', { exact: true }).first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('picks up after the tab is closed from the committed offset, never fetching committed bytes again', async () => {
    const { id, bytes } = await movie(movieBytes(32 * MiB));
    const { context, page } = await subscriber();
    try {
      proxy.throttleBps = 4 * MiB;
      await tapDownload(page, id);
      const before = await waitForRecord(page, id, (r) => r.committed >= 8 * MiB);
      await page.close();
      proxy.throttleBps = null;

      const again = await context.newPage();
      await again.goto('/downloads');
      await waitForRecord(again, id, complete);
      expect(await opfsSha256(again, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
      const resumed = proxy.log[1]!;
      const start = Number(/^bytes=(\d+)-/.exec(resumed.range ?? '')?.[1]);
      expect(start).toBeGreaterThanOrEqual(before.committed);
      expect(start).toBeLessThanOrEqual(proxy.log[0]!.bytesSent);
      expect(proxy.log).toHaveLength(2);
    } finally {
      await context.close();
    }
  });

  it('asks the API for a fresh link when storage refuses the old one, and goes on from the same offset', async () => {
    const { id, bytes } = await movie(movieBytes(12 * MiB));
    const { context, page } = await subscriber();
    try {
      proxy.faults.push({ dropAfter: 4 * MiB }, { status: 403 });
      // Slow enough that the fresh link is minted in a later second than the first (links are signed to the second).
      proxy.throttleBps = 2 * MiB;
      await tapDownload(page, id);
      await waitForRecord(page, id, (r) => r.committed >= 6 * MiB);
      proxy.throttleBps = null;
      const done = await waitForRecord(page, id, complete);
      expect(done.state).toBe('complete');
      const [first, refused, fresh] = proxy.log;
      expect(refused!.status).toBe(403);
      expect(fresh!.range).toBe(refused!.range);
      expect(fresh!.url).not.toBe(first!.url);
      expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
    } finally {
      await context.close();
    }
  });

  it('never splices a changed file: the bytes it had are dropped and the new version is downloaded whole', async () => {
    const { id } = await movie(movieBytes(10 * MiB));
    const v1 = movieBytes(10 * MiB);
    const v2 = movieBytes(10 * MiB);
    const { context, page } = await subscriber();
    try {
      proxy.override = { body: v1, etag: '"version-1"' };
      proxy.faults.push({ dropAfter: 6 * MiB });
      await tapDownload(page, id);
      await waitForRecord(page, id, (r) => r.committed > 0 && r.etag === '"version-1"');
      proxy.override = { body: v2, etag: '"version-2"' };
      await waitForRecord(page, id, complete);
      expect(await opfsSha256(page, id)).toEqual({ size: v2.length, sha: sha256(v2) });
      // The resume sent the old validator and got the whole new file back.
      const resume = proxy.log.find((f) => f.range !== null)!;
      expect(resume.ifRange).toBe('"version-1"');
      expect(resume.status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('restarts correctly when a resume is answered with the whole file (range ignored), and counts the data spent twice', async () => {
    const { id, bytes } = await movie(movieBytes(9 * MiB));
    const { context, page } = await subscriber();
    try {
      proxy.faults.push({ dropAfter: 5 * MiB }, { ignoreRange: true });
      await tapDownload(page, id);
      const record = await waitForRecord(page, id, complete);
      expect(proxy.log[1]!.status).toBe(200);
      expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
      // My Downloads' data used (decision 0216): this month and today are what the phone received, re-fetches included.
      // Part of the file came twice: what arrived before the drop (up to 5 MiB, less what the drop lost on the way),
      // then all 9 MiB again.
      expect(record.bytesFromNetwork).toBeGreaterThan(bytes.length);
      await page.goto('/downloads');
      const used = page.getByRole('region', { name: 'Data used on this phone' });
      const thisMonth = used.locator('dt', { hasText: 'This month' }).locator('xpath=following-sibling::dd').first();
      expect(await thisMonth.innerText()).toBe(formatBytes(record.bytesFromNetwork));
      expect(
        await used
          .getByRole('row', { name: /^Today / })
          .getByRole('cell')
          .innerText(),
      ).toBe(formatBytes(record.bytesFromNetwork));
      await used
        .locator('dt', { hasText: 'Last month' })
        .locator('xpath=following-sibling::dd')
        .getByText('None')
        .waitFor();
      await page.setViewportSize({ width: 360, height: 780 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await expectAccessible(page, 'My Downloads with data used');
    } finally {
      await context.close();
    }
  });

  it('takes a 416 at the end of the file as complete, fetching nothing again (crash after the last commit)', async () => {
    const { id, title, bytes } = await movie(movieBytes(3 * MiB));
    const { context, page } = await subscriber();
    try {
      await page.goto('/downloads');
      const { userId } = await browserSession(page);
      const record = localRecord(userId, { movieId: id, title, size: bytes.length }, { committed: bytes.length });
      await putLocalDownload(page, record, bytes);
      await page.reload();
      await waitForRecord(page, id, complete);
      // One request, answered 416 with the server's short error body: none of the file again.
      expect(proxy.log.map((f) => [f.range, f.status])).toEqual([[`bytes=${bytes.length}-`, 416]]);
      expect(proxy.log[0]!.bytesSent).toBeLessThan(1024);
    } finally {
      await context.close();
    }
  });

  it('pauses from the movie page, still offers Resume after a reload, and resumes where it stopped', async () => {
    const { id, bytes } = await movie(movieBytes(24 * MiB));
    const { context, page } = await subscriber();
    try {
      proxy.throttleBps = 3 * MiB;
      await tapDownload(page, id);
      await waitForRecord(page, id, (r) => r.committed >= 3 * MiB);
      await page.getByRole('button', { name: 'Pause' }).click();
      await waitForRecord(page, id, (r) => r.state === 'paused');
      await page.getByText('Download Paused').waitFor();

      await page.reload();
      const resume = page.getByRole('button', { name: 'Resume' });
      await resume.waitFor();
      // The server hears of the pause too (product §4: progress saved, status paused). The report is sent in the
      // background, so a reload right after Pause may land first: the reloaded app sends it then.
      const auth = (await browserSession(page)).token;
      const serverStatus = () =>
        page.evaluate(
          async ({ id, auth }) =>
            (
              await fetch(`/api/users/downloads/${id}/status`, {
                headers: { Authorization: `Bearer ${auth}`, 'X-Device-Id': localStorage.getItem('filamu.deviceId')! },
              })
            ).json() as Promise<{ status: string; downloadedBytes: number }>,
          { id, auth },
        );
      await expect.poll(async () => (await serverStatus()).status, { timeout: 10_000 }).toBe('paused');
      expect((await serverStatus()).downloadedBytes).toBeGreaterThan(0);

      const before = (await readRecord(page, id))!;
      expect(before.state).toBe('paused');
      proxy.throttleBps = null;
      await resume.click();
      await waitForRecord(page, id, complete);
      expect(proxy.log.at(-1)!.range).toBe(`bytes=${before.committed}-`);
      expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
    } finally {
      await context.close();
    }
  });

  it('runs one writer across two tabs, and the second tab takes over when the first closes', async () => {
    const { id, bytes } = await movie(movieBytes(24 * MiB));
    const { context, page } = await subscriber();
    try {
      proxy.throttleBps = 3 * MiB;
      await tapDownload(page, id);
      // The first tab is the writer: it was the only one when the download started. (Every tab's engine asks for the
      // one writer's lock when the tab opens, so a second tab opened first could hold it and the close below would
      // change nothing.)
      await waitForRecord(page, id, (r) => r.committed >= 1 * MiB);
      const second = await context.newPage();
      await second.goto('/downloads');
      await waitForRecord(second, id, (r) => r.committed >= 4 * MiB);
      await second.getByRole('progressbar').first().waitFor();
      // Two tabs open, one request: the second tab only watches.
      expect(proxy.maxInFlight).toBe(1);
      const requestsBeforeClose = proxy.log.length;
      await page.close();
      proxy.throttleBps = null;
      await waitForRecord(second, id, complete);
      // The closed tab's socket may be torn down a moment after the second tab's request arrives (the proxy hears of
      // both in either order), so the takeover is judged by what the second tab asked for: it carries on from
      // the bytes already written instead of starting again.
      const takeover = proxy.log.slice(requestsBeforeClose);
      expect(takeover.length).toBeGreaterThan(0);
      expect(Number(/^bytes=(\d+)-/.exec(takeover[0]!.range ?? '')?.[1])).toBeGreaterThanOrEqual(4 * MiB);
      expect(await opfsSha256(second, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
    } finally {
      await context.close();
    }
  });

  it('plays offline with seeking and saves the file to the phone', async () => {
    const video = generateDemoMovie({
      title: 'Offline Night',
      palette: [
        [200, 80, 20],
        [20, 20, 60],
      ],
      seconds: 6,
    });
    const { id, title } = await movie(video.bytes, `Offline Night ${stamp()}`);
    const { context, page } = await subscriber();
    try {
      await tapDownload(page, id);
      await waitForRecord(page, id, complete);
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      await context.setOffline(true);

      await page.goto(`/downloads/${id}/play`);
      const player = page.locator('video');
      await player.waitFor();
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
      const duration = await player.evaluate((v: HTMLVideoElement) => v.duration);
      expect(duration).toBeGreaterThan(5);
      await player.evaluate(
        (v: HTMLVideoElement) =>
          new Promise<void>((resolve) => {
            v.addEventListener('seeked', () => resolve(), { once: true });
            v.currentTime = 4;
          }),
      );
      expect(await player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(3.9);

      // Keep a copy (the file picker cannot be driven headless: the download-link path). The server still delivers
      // plain files, so the copy is the .mp4 it always was (downloads-screens.e2e.ts covers the .filamu one).
      await page.goto('/downloads');
      await page.evaluate(() =>
        Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined }),
      );
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page
          .getByRole('button', { name: /keep a copy/i })
          .first()
          .click(),
      ]);
      const saved = await download.path();
      const { readFile } = await import('node:fs/promises');
      expect(sha256(await readFile(saved))).toBe(sha256(video.bytes));
      expect(download.suggestedFilename()).toContain(title.split(' ')[0]);
    } finally {
      await context.close();
    }
  });

  it('stops as "needs space" when storage is full, keeps what it has, and finishes after space is freed', async () => {
    const { id, bytes } = await movie(movieBytes(20 * MiB));
    const { context, page } = await subscriber();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 12 * MiB });
      await tapDownload(page, id);
      const stopped = await waitForRecord(page, id, (r) => r.state === 'needs-space', 20_000);
      expect(stopped.committed).toBeGreaterThan(0);
      expect(stopped.committed).toBeLessThan(bytes.length);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
      await page.goto('/downloads');
      await page
        .getByRole('button', { name: /resume/i })
        .first()
        .click();
      await waitForRecord(page, id, complete);
      expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
      const resumed = proxy.log.find((f) => f.range !== null)!;
      expect(Number(/\d+/.exec(resumed.range!)![0])).toBe(stopped.committed);
    } finally {
      await context.close();
    }
  });

  describe('Background Fetch (opted in)', () => {
    /** The person turns on "Keep downloading when the app is closed" on My Downloads. */
    async function optIn(page: Page) {
      await page.goto('/downloads');
      // `ready` settles once a worker is active (evaluate awaits it; waitForFunction would not).
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload({ waitUntil: 'networkidle' });
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
      const toggle = page.getByRole('switch', { name: 'Keep downloading when the app is closed' });
      await toggle.click();
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
    }

    it('finishes with every page closed: the browser downloads, the service worker stores the movie', async () => {
      const { id, bytes } = await movie(movieBytes(16 * MiB));
      const { context, page } = await subscriber();
      try {
        await optIn(page);
        proxy.throttleBps = 4 * MiB;
        await tapDownload(page, id);
        // Marked for Background Fetch (still "queued") before the browser takes it; closing the page before the
        // browser has it would lose the download, so wait for the hand-over itself.
        const handed = await waitForRecord(page, id, (r) => r.engine !== 'bgfetch' || r.state !== 'queued');
        expect([handed.engine, handed.state]).toEqual(['bgfetch', 'downloading']);
        await page.close();

        // No page is open while the bytes move.
        const deadline = Date.now() + 30_000;
        while (!(proxy.log[0]?.endedAt && proxy.log[0].bytesSent === bytes.length) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(proxy.log.map((f) => [f.range, f.bytesSent])).toEqual([[null, bytes.length]]);
        const again = await context.newPage();
        await again.goto('/downloads');
        const done = await waitForRecord(again, id, complete);
        expect(done.engine).toBe('bgfetch');
        expect(await opfsSha256(again, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
      } finally {
        await context.close();
      }
    });

    it('gets past a dropped connection without splicing', async () => {
      const { id, bytes } = await movie(movieBytes(12 * MiB));
      const { context, page } = await subscriber();
      try {
        await optIn(page);
        proxy.faults.push({ dropAfter: 5 * MiB });
        await tapDownload(page, id);
        await waitForRecord(page, id, complete, 90_000);
        expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
        expect(proxy.log[0]!.dropped).toBe(true);
        // Chrome resumes with Range + If-Range, or starts over; either way every byte is the file's.
        expect(proxy.bytesServed()).toBeLessThanOrEqual(2 * bytes.length);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('falls back to the in-app engine when the background download fails', async () => {
      const { id, bytes } = await movie(movieBytes(6 * MiB));
      const { context, page } = await subscriber();
      try {
        await optIn(page);
        proxy.faults.push({ status: 404 });
        await tapDownload(page, id);
        const done = await waitForRecord(page, id, complete);
        expect(done.engine).toBe('ranged');
        expect(proxy.log[0]!.status).toBe(404);
        expect(await opfsSha256(page, id)).toEqual({ size: bytes.length, sha: sha256(bytes) });
      } finally {
        await context.close();
      }
    });
  });
});
