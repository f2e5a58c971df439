import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultProxy } from '../../../../../e2e/support/fault-proxy.ts';
import { runTransfer, type FileSink, type TransferDeps, type TransferInput } from './transfer.ts';

/** A file in memory with the sync access handle's semantics (write at an offset, truncate, size). */
class MemoryFile implements FileSink {
  bytes = Buffer.alloc(0);
  flushed = 0;
  /** Throws QuotaExceededError once the file would grow past this. */
  limit = Infinity;
  /** Writes short (as Chromium's sync handle does out of quota) past this. */
  shortPast = Infinity;
  getSize() {
    return this.bytes.length;
  }
  truncate(size: number) {
    this.bytes =
      size <= this.bytes.length
        ? this.bytes.subarray(0, size)
        : Buffer.concat([this.bytes, Buffer.alloc(size - this.bytes.length)]);
  }
  write(data: Uint8Array, { at }: { at: number }) {
    if (at + data.byteLength > this.limit) throw new DOMException('quota', 'QuotaExceededError');
    if (at + data.byteLength > this.shortPast) data = data.subarray(0, Math.max(0, this.shortPast - at));
    if (at + data.byteLength > this.bytes.length) this.truncate(at + data.byteLength);
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(this.bytes, at);
    return data.byteLength;
  }
  flush() {
    this.flushed += 1;
  }
}

const SIZE = 8 * 1024 * 1024 + 12345;
const COMMIT = 1024 * 1024;
const original = randomBytes(SIZE);
const ETAG = '"v1"';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: FaultProxy;
let url: string;

beforeAll(async () => {
  server = new FaultProxy({ match: () => true });
  url = `${await server.listen()}/files/movies/a.mp4`;
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.override = { body: original, etag: ETAG };
});

/** What the engine gives a transfer, with small timings for tests; `commit` records into `state`. */
function depsFor(
  file: MemoryFile,
  state: { committed: number; etag: string | null },
  extra: Partial<TransferDeps> = {},
): TransferDeps {
  return {
    fetch,
    sink: file,
    signal: new AbortController().signal,
    now: Date.now,
    commitEveryBytes: COMMIT,
    commitEveryMs: 60_000,
    stallMs: 2000,
    commit: async (offset, etag) => {
      state.committed = offset;
      state.etag = etag;
    },
    ...extra,
  };
}

/** Runs transfers the way the engine does: from the committed offset, again and again, until an end. */
async function download(file: MemoryFile, state = { committed: 0, etag: null as string | null }, maxRuns = 10) {
  const commits: number[] = [];
  const outcomes: string[] = [];
  const startOffsets: number[] = [];
  for (let run = 0; run < maxRuns; run += 1) {
    startOffsets.push(state.committed);
    file.truncate(state.committed);
    const input: TransferInput = { url, size: SIZE, etag: state.etag, committed: state.committed, ifRange: true };
    const deps = depsFor(file, state, {
      commit: async (offset, etag) => {
        commits.push(offset);
        state.committed = offset;
        state.etag = etag;
      },
    });
    const { outcome } = await runTransfer(input, deps);
    outcomes.push(outcome.kind);
    if (outcome.kind !== 'network' && outcome.kind !== 'changed') break;
  }
  return { commits, outcomes, state, startOffsets };
}

describe('runTransfer against a real HTTP server', () => {
  it('downloads a file byte-exact, committing at least every commit interval', async () => {
    const file = new MemoryFile();
    const { outcomes, commits, state } = await download(file);
    expect(outcomes).toEqual(['complete']);
    expect(sha(file.bytes)).toBe(sha(original));
    expect(state).toEqual({ committed: SIZE, etag: ETAG });
    const steps = commits.slice(1).map((c, i) => c - commits[i]!);
    expect(Math.max(...steps)).toBeLessThan(COMMIT + 64 * 1024);
    expect(server.log).toHaveLength(1);
    expect(server.log[0]!.range).toBeNull();
  });

  it('resumes three mid-stream drops from the committed offset, fetching next to nothing twice', async () => {
    server.faults.push({ dropAfter: 1_500_000 }, { dropAfter: 2_000_000 }, { dropAfter: 3_333_333 });
    const file = new MemoryFile();
    const { outcomes, state, startOffsets } = await download(file);
    expect(outcomes).toEqual(['network', 'network', 'network', 'complete']);
    expect(sha(file.bytes)).toBe(sha(original));
    expect(state.committed).toBe(SIZE);
    // Each follow-up asks, with the validator, for exactly what was not yet on disk when the drop came.
    expect(server.log.map((entry) => entry.range)).toEqual(
      startOffsets.map((offset) => (offset === 0 ? null : `bytes=${offset}-`)),
    );
    expect(server.log.slice(1).map((entry) => entry.ifRange)).toEqual([ETAG, ETAG, ETAG]);
    expect(startOffsets[1]).toBeGreaterThan(1_000_000);
    expect(server.bytesServed()).toBeLessThanOrEqual(SIZE + 3 * COMMIT);
  });

  it('starts over when the server ignores the range (200), never splicing', async () => {
    const file = new MemoryFile();
    server.faults.push({ dropAfter: 3_000_000 }, { ignoreRange: true });
    const { outcomes } = await download(file);
    expect(outcomes).toEqual(['network', 'complete']);
    expect(server.log[1]!.status).toBe(200);
    expect(sha(file.bytes)).toBe(sha(original));
  });

  it('discards what it had when the file changed (206 under another ETag) and ends with the new file', async () => {
    const file = new MemoryFile();
    server.faults.push({ dropAfter: 2_500_000 });
    const first = await download(file, undefined, 1);
    expect(first.outcomes).toEqual(['network']);
    const changed = randomBytes(SIZE);
    server.override = { body: changed, etag: '"v2"' };
    // Without If-Range (a cross-origin link) the server answers 206 with the new ETag: it must not be spliced.
    const state = first.state;
    file.truncate(state.committed);
    const { outcome } = await runTransfer(
      { url, size: SIZE, etag: state.etag, committed: state.committed, ifRange: false },
      depsFor(file, state),
    );
    expect(outcome).toEqual({ kind: 'changed', etag: '"v2"' });
    expect(file.getSize()).toBe(0);
    expect(state).toEqual({ committed: 0, etag: '"v2"' });
    const rest = await download(file, state);
    expect(rest.outcomes).toEqual(['complete']);
    expect(sha(file.bytes)).toBe(sha(changed));
  });

  it('with If-Range, a changed file comes back whole (200) and replaces the old bytes', async () => {
    const file = new MemoryFile();
    server.faults.push({ dropAfter: 2_500_000 });
    const first = await download(file, undefined, 1);
    const changed = randomBytes(SIZE);
    server.override = { body: changed, etag: '"v2"' };
    const rest = await download(file, first.state);
    expect(rest.outcomes).toEqual(['complete']);
    expect(server.log.at(-1)!.status).toBe(200);
    expect(sha(file.bytes)).toBe(sha(changed));
    expect(rest.state.etag).toBe('"v2"');
  });

  it('takes 416 */size at the end of the file as complete without fetching anything', async () => {
    const file = new MemoryFile();
    file.write(original, { at: 0 });
    const { outcomes } = await download(file, { committed: SIZE, etag: ETAG });
    expect(outcomes).toEqual(['complete']);
    expect(server.log[0]!.status).toBe(416);
    expect(server.bytesServed()).toBe(0);
  });

  it('reports a refused link, a missing file and a server error as different outcomes', async () => {
    for (const [status, kind] of [
      [403, 'link-lapsed'],
      [401, 'link-lapsed'],
      [404, 'gone'],
      [410, 'gone'],
      [503, 'server'],
      [400, 'http'],
    ] as const) {
      server.faults.push({ status });
      const { outcomes } = await download(new MemoryFile(), undefined, 1);
      expect(outcomes, String(status)).toEqual([kind]);
    }
  });

  it('stops cleanly when the phone is full, keeping every byte written before', async () => {
    const file = new MemoryFile();
    file.limit = 5 * 1024 * 1024 + 100;
    const { outcomes, state } = await download(file);
    expect(outcomes).toEqual(['no-space']);
    expect(state.committed).toBeGreaterThan(4 * 1024 * 1024);
    expect(state.committed).toBeLessThanOrEqual(file.limit);
    expect(Buffer.compare(file.bytes.subarray(0, state.committed), original.subarray(0, state.committed))).toBe(0);
    file.limit = Infinity;
    const rest = await download(file, state);
    expect(rest.outcomes).toEqual(['complete']);
    expect(sha(file.bytes)).toBe(sha(original));
  });

  it('treats a short write as a full disk too', async () => {
    const file = new MemoryFile();
    file.shortPast = 3 * 1024 * 1024 + 5;
    const { outcomes, state } = await download(file);
    expect(outcomes).toEqual(['no-space']);
    expect(state.committed).toBeLessThanOrEqual(file.shortPast);
    expect(Buffer.compare(file.bytes.subarray(0, state.committed), original.subarray(0, state.committed))).toBe(0);
  });

  it('gives up on a connection that stalls and resumes where it stopped', async () => {
    server.faults.push({ stallAfter: 1_000_000 });
    const file = new MemoryFile();
    const { outcomes, state } = await download(file);
    expect(outcomes).toEqual(['network', 'complete']);
    expect(server.log[1]!.range).toBe(`bytes=${1_000_000}-`);
    expect(state.committed).toBe(SIZE);
    expect(sha(file.bytes)).toBe(sha(original));
  });

  it('pauses on abort with everything received committed', async () => {
    server.throttleBps = 4 * 1024 * 1024;
    const file = new MemoryFile();
    const controller = new AbortController();
    const state = { committed: 0, etag: null as string | null };
    setTimeout(() => controller.abort('paused'), 600);
    const { outcome } = await runTransfer(
      { url, size: SIZE, etag: null, committed: 0, ifRange: true },
      depsFor(file, state, { signal: controller.signal, stallMs: 5000 }),
    );
    expect(outcome.kind).toBe('aborted');
    expect(state.committed).toBe(file.getSize());
    expect(state.committed).toBeGreaterThan(0);
    expect(state.committed).toBeLessThan(SIZE);
  });
});
