import { get } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMovie,
  type Cluster,
  createCluster,
  createPlan,
  loginAdmin,
  pathOf,
  pollUntil,
  processTests,
  registerUser,
  Replica,
  subscribe,
  withinMs,
} from './server-process.ts';

const MOVIE_BYTES = 24 * 1024 * 1024;
/** Slow enough that the download outlives socket buffers and the short drain; fast enough for CI. */
const READ_BYTES_PER_SECOND = 8 * 1024 * 1024;

interface Download {
  status: number;
  body: Buffer;
  complete: boolean;
}

/** A GET on its own connection whose reader takes `READ_BYTES_PER_SECOND`; `received()` counts bytes so far. */
function throttledDownload(url: string, headers: Record<string, string> = {}) {
  let received = 0;
  const done = new Promise<Download>((resolve, reject) => {
    const request = get(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        res.pause();
        setTimeout(() => res.resume(), (chunk.length / READ_BYTES_PER_SECOND) * 1000);
      });
      res.on('error', () => {});
      res.on('close', () => {
        const body = Buffer.concat(chunks);
        const expected = Number(res.headers['content-length']);
        resolve({ status: res.statusCode!, body, complete: res.complete && body.length === expected });
      });
    });
    request.on('error', reject);
  });
  return { done, received: () => received };
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** SIGTERM with requests in flight (decision 0080). */
describe.skipIf(!processTests)('graceful shutdown of a server process', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  let other: Replica;
  let link: string;
  let movie: Buffer;
  beforeAll(async () => {
    cluster = await createCluster();
    other = await Replica.start(cluster);
    const adminToken = await loginAdmin(other);
    const planId = await createPlan(other, adminToken);
    const added = await addMovie(other, adminToken, planId, MOVIE_BYTES);
    movie = added.bytes;
    const user = await registerUser(other);
    await subscribe(other, adminToken, user.userId, planId);
    const grant = await other.request('POST', '/api/users/movies/generate-download-url', {
      token: user.token,
      body: { movieId: added.movieId },
    });
    expect(grant.status, grant.text).toBe(200);
    link = pathOf(grant.json.downloadUrl);
  }, 120_000);
  afterAll(() => cluster?.close());

  /** A replica leaving with the movie's download under way (the first MiB received). */
  async function leavingMidDownload(env: Record<string, string>) {
    const leaving = await Replica.start(cluster, env);
    const download = throttledDownload(`${leaving.url}${link}`);
    await pollUntil(
      async () => download.received() > 1024 * 1024,
      10_000,
      () => 'the download never started',
    );
    return { leaving, download };
  }

  it('turns unready, refuses new connections, lets the download in flight finish and exits 0', async () => {
    const { leaving, download } = await leavingMidDownload({
      SHUTDOWN_DRAIN_MS: '30000',
      SHUTDOWN_UNREADY_DELAY_MS: '2000',
    });

    const signalledAt = Date.now();
    process.kill(leaving.pid, 'SIGTERM');
    // During the unready delay the port is open and readiness says 503; liveness still answers.
    // (The signal arrives asynchronously, so a request sent at the same moment may still be answered 200.)
    let unready: unknown;
    await pollUntil(
      async () => {
        const ready = await fetch(`${leaving.url}/api/health/ready`);
        if (ready.status === 503) unready = await ready.json();
        return ready.status === 503;
      },
      1000,
      () => 'readiness never answered 503',
    );
    expect(unready).toEqual({ status: 'unready', db: 'skipped', shuttingDown: true });
    expect((await fetch(`${leaving.url}/api/health/live`)).status).toBe(200);
    // Then the port closes while the download is still going.
    await pollUntil(
      () => refused(leaving.port),
      10_000,
      () => 'the port never closed',
    );
    expect(download.received()).toBeLessThan(MOVIE_BYTES);

    const finished = await download.done;
    expect(finished.status).toBe(200);
    expect(finished.complete).toBe(true);
    expect(finished.body.equals(movie)).toBe(true);
    const exit = await withinMs(leaving.exited, 30_000, () => 'the server did not exit after draining');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(30_000);
  });

  it('cuts a download longer than the drain, exits non-zero, and the other replica resumes it by Range', async () => {
    const { leaving, download } = await leavingMidDownload({ SHUTDOWN_DRAIN_MS: '500' });
    process.kill(leaving.pid, 'SIGTERM');

    const cut = await download.done;
    expect(cut.status).toBe(200);
    expect(cut.complete).toBe(false);
    expect(cut.body.length).toBeLessThan(MOVIE_BYTES);
    expect(cut.body.equals(movie.subarray(0, cut.body.length))).toBe(true);
    expect(await withinMs(leaving.exited, 15_000, () => 'the server did not exit')).toEqual({ code: 1, signal: null });

    const rest = await fetch(`${other.url}${link}`, { headers: { range: `bytes=${cut.body.length}-` } });
    expect(rest.status).toBe(206);
    const whole = Buffer.concat([cut.body, Buffer.from(await rest.arrayBuffer())]);
    expect(whole.equals(movie)).toBe(true);
  });

  it('stops at once on a second signal', async () => {
    const { leaving, download } = await leavingMidDownload({ SHUTDOWN_DRAIN_MS: '60000' });
    process.kill(leaving.pid, 'SIGTERM');
    await pollUntil(
      () => refused(leaving.port),
      10_000,
      () => 'the port never closed',
    );
    process.kill(leaving.pid, 'SIGINT');
    expect(await withinMs(leaving.exited, 10_000, () => 'a second signal did not stop the server')).toEqual({
      code: 1,
      signal: null,
    });
    expect((await download.done).complete).toBe(false);
  });
});
