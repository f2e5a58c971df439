// Longer than 300 lines on purpose: the download engine's one loop (links, ranges, resume, back-off, progress) is the
// state machine the unit and browser tests exercise as a whole.
import { browserEngineDeps, type EngineDeps } from './engine-deps.ts';
import { ProgressThrottle } from './progress-throttle.ts';
import { backoffMs, DOWNLOAD_RETRY } from '../../../lib/transfer/backoff.ts';
import { SpeedMeter } from '../../../lib/transfer/speed-meter.ts';
import { NIGHT_OVER, outsideItsNight } from './night-rules.ts';
import { RUNNABLE_STATES, type LocalDownload } from './record.ts';
import type { Session } from './server.ts';
import { announce, dispatch, getDownload, listDownloads, putSubtitles } from './store.ts';
import { rateLimitedMessage, waitAfterRateLimit } from './retry-after.ts';
import { runTransfer, type TransferOutcome, type TransferResult } from './transfer.ts';
import { LOCKS } from '../../../lib/storage-names.ts';

/**
 * The in-app engine, run by the dedicated worker: one download at a time, for the signed-in person, across every
 * tab (Web Locks elect one engine; another tab's takes over when it closes). It wakes on commands and sleeps
 * through back-off; every decision is an event on the record's state machine.
 */
const COMMIT_EVERY_BYTES = 1024 * 1024;
const COMMIT_EVERY_MS = 2000;
const STALL_MS = 30_000;
/** Ask for a fresh link when the one we hold has less than this left. */
const LINK_MARGIN_MS = 60_000;
const LIVE_EVERY_MS = 250;
const WAITING_FOR_WIFI = 'Waiting for Wi-Fi';

interface Auth {
  ownerId: string;
  session: Session;
}

export class Engine {
  private auth: Auth | null = null;
  private wake: (() => void) | null = null;
  private active: { key: string; controller: AbortController } | null = null;
  /**
   * Network failures in a row and when to try again, per record (memory only: a restart retries at once).
   * `notBefore`: the server's Retry-After, which a kick does not cut short.
   */
  private retry = new Map<string, { failures: number; at: number; notBefore?: number }>();
  private lapses = new Map<string, number>();
  private wifiOnly = false;

  constructor(private readonly deps: EngineDeps = browserEngineDeps()) {}

  setWifiOnly(on: boolean): void {
    this.wifiOnly = on;
    if (on && this.deps.onMobileData()) this.active?.controller.abort('wifi-only');
    this.kick();
  }

  setAuth(ownerId: string | null, token: string | null, deviceId: string): void {
    const next = ownerId && token ? { ownerId, session: { token, deviceId } } : null;
    if (this.auth?.ownerId !== next?.ownerId) this.active?.controller.abort('signed-out');
    this.auth = next;
    this.kick();
  }

  /** Something changed: retry waiting downloads now and look at the records again. */
  kick(): void {
    this.retry.forEach((entry) => (entry.at = entry.notBefore ?? 0));
    this.wake?.();
  }

  /** A record changed elsewhere (paused or cancelled in some tab): stop writing it if it is no longer ours to run. */
  async onRecordChanged(key: string): Promise<void> {
    if (this.active?.key !== key) return this.wake?.();
    const record = await getDownload(key);
    if (!record || !RUNNABLE_STATES.has(record.state)) this.active?.controller.abort('stopped');
  }

  async run(): Promise<never> {
    for (;;) {
      const waitMs = await this.step().catch((error: unknown) => {
        console.error('download engine', error);
        return 5000;
      });
      if (waitMs > 0) await this.sleep(waitMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** Does one piece of work; returns how long to sleep before the next look (0: at once). */
  private async step(): Promise<number> {
    const auth = this.auth;
    if (!auth) return 3_600_000;
    const records = await listDownloads(auth.ownerId);
    for (const record of records) {
      if (record.state === 'complete' && !record.reportedComplete) await this.reportCompleted(auth, record);
    }
    if (this.wifiOnly && this.deps.onMobileData()) {
      for (const record of records) {
        if (RUNNABLE_STATES.has(record.state) && record.engine === 'ranged') {
          await dispatch(record.key, { type: 'offline', message: WAITING_FOR_WIFI });
        }
      }
      // The connection's change event (or a setting change) wakes the engine.
      return 3_600_000;
    }
    const now = Date.now();
    // A film for tonight never spends day data, even when no page with night mode is left to pause it.
    for (const record of records) {
      if (RUNNABLE_STATES.has(record.state) && outsideItsNight(record, now)) {
        await dispatch(record.key, { type: 'night-close', message: NIGHT_OVER });
      }
    }
    // The browser's Background Fetch moves those bytes; the engine keeps its hands off them.
    const runnable = records.filter(
      (r) => RUNNABLE_STATES.has(r.state) && r.engine === 'ranged' && !outsideItsNight(r, now),
    );
    const due = runnable.find((r) => (this.retry.get(r.key)?.at ?? 0) <= now);
    if (!due) {
      const next = Math.min(...runnable.map((r) => this.retry.get(r.key)?.at ?? Infinity));
      return Number.isFinite(next) ? Math.max(100, next - now) : 3_600_000;
    }
    await this.deps.lock(LOCKS.download(due.key), () => this.work(auth, due.key));
    return 0;
  }

  private networkTrouble(key: string): void {
    const failures = (this.retry.get(key)?.failures ?? 0) + 1;
    this.retry.set(key, { failures, at: Date.now() + backoffMs(failures, DOWNLOAD_RETRY) });
  }

  private async work(auth: Auth, key: string): Promise<void> {
    let record = await getDownload(key);
    if (!record || !RUNNABLE_STATES.has(record.state) || record.engine !== 'ranged') return;

    if (!record.url || record.urlExpiresAt - Date.now() < LINK_MARGIN_MS) {
      const granted = await this.grant(auth, record);
      if (!granted) return;
      record = granted;
    }
    record = (await dispatch(key, { type: 'start' })) ?? record;
    if (record.state !== 'downloading' || !record.url) return;

    const { outcome, networkBytes } = await this.transfer(auth, record);
    // A connection that delivered bytes before it dropped was a good one: the back-off starts again from short.
    if (networkBytes > 0) this.retry.delete(key);
    await this.settle(auth, key, outcome);
  }

  /** A fresh link for the same download; false when the engine must stop here for now. */
  private async grant(auth: Auth, record: LocalDownload): Promise<LocalDownload | undefined> {
    const publicKey = await this.deps.licences.publicKey();
    const answer = await this.deps.server.mintLink(
      auth.session,
      record.movieId,
      record.sizeChoice,
      publicKey ?? undefined,
    );
    if (answer.ok) {
      const link = answer.value;
      // Kept apart from the bytes: should it fail, the Play screen asks for this phone's licence again.
      if (link.licence) await this.deps.licences.keep(record.ownerId, link.licence).catch(() => undefined);
      return dispatch(record.key, {
        type: 'granted',
        downloadId: link.downloadId,
        url: link.downloadUrl,
        urlExpiresAt: Date.parse(link.expiresAt),
        size: link.fileSize,
        etag: link.etag,
        fileNonce: link.fileNonce,
        fileKind: link.size,
      });
    }
    if (answer.status === 429) {
      // Too many links asked for (ADR 0061): not a failure of the download; wait as long as the server says.
      const failures = (this.retry.get(record.key)?.failures ?? 0) + 1;
      const waitMs = waitAfterRateLimit(failures, answer.retryAfterMs);
      const at = Date.now() + waitMs;
      this.retry.set(record.key, { failures, at, notBefore: at });
      await dispatch(record.key, { type: 'offline', message: rateLimitedMessage(waitMs) });
    } else if (answer.status === 0 || answer.status >= 500) {
      this.networkTrouble(record.key);
      await dispatch(record.key, { type: 'offline' });
    } else if (answer.status === 401) {
      announce({ type: 'unauthorized' });
      this.auth = null;
    } else {
      // The server's rules refused it (subscription ended, English locked, removed movie): say why.
      await dispatch(record.key, { type: 'refused', message: answer.message });
    }
    return undefined;
  }

  private async transfer(auth: Auth, record: LocalDownload): Promise<TransferResult> {
    const key = record.key;
    const sink = await this.deps.openFile(key);
    const controller = new AbortController();
    this.active = { key, controller };
    const throttle = new ProgressThrottle(record.size, record.committed, Date.now());
    const speed = new SpeedMeter();
    let lastLive = 0;
    // A film for tonight stops at its window's end, mid-transfer; the next look pauses it (bytes committed are kept).
    const nightEnds =
      record.nightOnly && record.nightUntil !== undefined
        ? setTimeout(() => controller.abort('night-over'), Math.max(0, record.nightUntil - Date.now()))
        : undefined;
    try {
      // Only bytes covered by a committed offset are trusted after a crash.
      const committed = Math.min(record.committed, sink.getSize());
      sink.truncate(committed);
      const result = await runTransfer(
        {
          url: record.url!,
          size: record.size,
          etag: record.etag,
          committed,
          ifRange: new URL(record.url!, this.deps.pageUrl()).origin === new URL(this.deps.pageUrl()).origin,
        },
        {
          fetch: this.deps.fetch,
          sink,
          signal: controller.signal,
          now: Date.now,
          commitEveryBytes: COMMIT_EVERY_BYTES,
          commitEveryMs: COMMIT_EVERY_MS,
          stallMs: STALL_MS,
          commit: async (offset, etag, networkBytes) => {
            await dispatch(key, {
              type: 'committed',
              committed: offset,
              etag,
              bytesFromNetwork: record.bytesFromNetwork + networkBytes,
            });
            if (record.downloadId && throttle.take(offset, Date.now())) {
              void this.deps.server.reportProgress(auth.session, record.downloadId, offset, record.size);
            }
          },
          onBytes: (position) => {
            const now = Date.now();
            const bps = speed.sample(now, position);
            if (now - lastLive >= LIVE_EVERY_MS || position === record.size) {
              lastLive = now;
              announce({ type: 'live', key, received: position, speedBps: bps });
            }
          },
        },
      );
      if (result.outcome.kind === 'complete' && sink.getSize() !== record.size) {
        const message = 'The downloaded file is not the expected size.';
        return { ...result, outcome: { kind: 'http', status: 200, message } };
      }
      return result;
    } finally {
      clearTimeout(nightEnds);
      sink.close();
      this.active = null;
    }
  }

  /**
   * The last online step of a finished film: the server hears of it, and its subtitles are kept beside it — before
   * the record says so, so a film reported done plays with its subtitles offline even if the app closes at once.
   */
  private async reportCompleted(auth: Auth, record: LocalDownload): Promise<void> {
    if (!record.downloadId) return;
    const answer = await this.deps.server.reportComplete(auth.session, record.downloadId, record.size);
    if (!answer.ok && answer.status !== 409) return;
    const tracks = await this.deps.server.subtitleTracks(auth.session, record.movieId);
    if (tracks) await putSubtitles({ key: record.key, tracks, fetchedAt: Date.now() });
    // Kept too, so the film can be sent on to another phone with no data (asked again when it is sent, if this fails).
    const manifest = await this.deps.server.filmManifest(auth.session, record);
    if (manifest && record.fileNonce) {
      await dispatch(record.key, { type: 'manifest', manifest, fileNonce: record.fileNonce });
    }
    await dispatch(record.key, { type: 'reported' });
  }

  private async settle(auth: Auth, key: string, outcome: TransferOutcome): Promise<void> {
    if (outcome.kind !== 'link-lapsed') this.lapses.delete(key);
    switch (outcome.kind) {
      case 'complete': {
        this.retry.delete(key);
        await dispatch(key, { type: 'bytes-done' });
        const done = await dispatch(key, { type: 'verified' });
        if (done) await this.reportCompleted(auth, done);
        return;
      }
      case 'link-lapsed': {
        // A fresh link is not a failure, but one that is refused at once every time is.
        const lapses = (this.lapses.get(key) ?? 0) + 1;
        this.lapses.set(key, lapses);
        if (lapses >= 3) {
          this.lapses.delete(key);
          await dispatch(key, { type: 'hard-error', message: `HTTP status: ${outcome.status}` });
        } else {
          await dispatch(key, { type: 'link-lapsed' });
        }
        return;
      }
      case 'network':
      case 'server':
        this.networkTrouble(key);
        await dispatch(key, { type: 'offline' });
        return;
      case 'changed':
        // A fresh link names the file as it is now, with its nonce (a plain file encrypted since, decision 0229).
        this.retry.delete(key);
        await dispatch(key, { type: 'link-lapsed' });
        return;
      case 'gone':
        await this.fail(auth, key, 'This movie is no longer available.', true);
        return;
      case 'http':
        await this.fail(auth, key, outcome.message, false);
        return;
      case 'no-space': {
        const record = await getDownload(key);
        await dispatch(key, { type: 'no-space', committed: record?.committed ?? 0 });
        return;
      }
      case 'aborted': {
        let record = await getDownload(key);
        if (record && RUNNABLE_STATES.has(record.state) && outsideItsNight(record, Date.now())) {
          record = await dispatch(key, { type: 'night-close', message: NIGHT_OVER });
        }
        if (record?.state === 'paused' && record.downloadId) {
          void this.deps.server.reportProgress(
            auth.session,
            record.downloadId,
            record.committed,
            record.size,
            'paused',
          );
        }
        return;
      }
    }
  }

  private async fail(auth: Auth, key: string, message: string, final: boolean): Promise<void> {
    const record = final
      ? await dispatch(key, { type: 'refused', message })
      : await dispatch(key, { type: 'hard-error', message });
    if (!record) return;
    if (record.state === 'failed') {
      if (record.downloadId) void this.deps.server.reportFailure(auth.session, record.downloadId, message);
    } else {
      // Product §9: wait 2 s × attempt before the next try.
      this.retry.set(key, { failures: 0, at: Date.now() + 2000 * record.attempts });
    }
  }
}
