import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The stall sweep's tools (decision 0104): payloads built to make regexes and parsers go quadratic, a pinger in its
 * own process, and a measure of one request's time and of how long the server's event loop stood still meanwhile.
 */

/** One payload family: a text of about `size` characters. */
export interface Pattern {
  name: string;
  make(size: number): string;
}

const run = (unit: string, size: number, tail = 'x') => unit.repeat(Math.max(1, Math.floor(size / unit.length))) + tail;

/** Long runs a `x+$`, `\s+`, `(a|b)*?` or `.*` can restart on at every position, each ended by a misfit. */
export const PATTERNS: Pattern[] = [
  { name: 'zeros', make: (n) => `1.${run('0', n, '1')}` },
  { name: 'digits', make: (n) => run('9', n, 'a') },
  { name: 'spaces', make: (n) => run(' ', n) },
  { name: 'newlines', make: (n) => run('\r\n', n) },
  { name: 'dots', make: (n) => run('.', n) },
  { name: 'slashes', make: (n) => run('/', n) },
  { name: 'dashes', make: (n) => run('-', n) },
  { name: 'at-signs', make: (n) => run('a@', n, '@') },
  { name: 'tags', make: (n) => run('<Explanation>', n) },
  { name: 'entities', make: (n) => run('&#1', n) },
  // Subtitle files (decision 0172): cue text of tags that never close or ASS overrides that never end, and arrows.
  { name: 'cue-unclosed-tags', make: (n) => `00:00:01,000 --> 00:00:02,000\n${run('<a', n)}` },
  { name: 'cue-overrides', make: (n) => `00:00:01,000 --> 00:00:02,000\n${run('{\\', n)}` },
  { name: 'arrows', make: (n) => run('-->', n) },
];

/** Whole bodies: nesting as deep as the size allows. */
export const NESTINGS: Pattern[] = [
  { name: 'nested-arrays', make: (n) => `${'['.repeat(n / 2)}${']'.repeat(n / 2)}` },
  { name: 'nested-objects', make: (n) => `${'{"a":'.repeat(n / 6)}1${'}'.repeat(n / 6)}` },
];

/** DPO push bodies: the notify route's parsers are XML, form and JSON. */
export const PUSH_BODIES: (Pattern & { contentType: string })[] = [
  {
    name: 'xml-unclosed-explanations',
    contentType: 'application/xml',
    make: (n) => `<API3G><TransactionToken>x</TransactionToken>${run('<Explanation>', n, '')}</API3G>`,
  },
  {
    name: 'xml-unclosed-instructions',
    contentType: 'text/xml',
    make: (n) => `<API3G>${run('<instructions><ResultExplanation>', n, '')}<TransactionToken>x</TransactionToken>`,
  },
  {
    name: 'xml-entities',
    contentType: 'application/xml',
    make: (n) => `<API3G><TransactionToken>${run('&#1', n)}</TransactionToken></API3G>`,
  },
  {
    name: 'xml-nesting',
    contentType: 'application/xml',
    make: (n) => `<API3G>${'<a>'.repeat(n / 7)}${'</a>'.repeat(n / 7)}</API3G>`,
  },
  {
    name: 'form-spaces',
    contentType: 'application/x-www-form-urlencoded',
    make: (n) => `TransactionToken=${run('+', n)}`,
  },
  {
    name: 'json-nesting',
    contentType: 'application/json',
    make: (n) => `{"TransactionToken":${NESTINGS[0]!.make(n)}}`,
  },
];

/** Payload sizes (characters): bodies go 32 → 128 KiB; a URL stays inside Node's 16 KiB header limit. */
export const BODY_SIZES = [32 * 1024, 128 * 1024] as const;
export const URL_SIZES = [3 * 1024, 12 * 1024] as const;

/** A pattern as a URL part of about `size` characters once percent-encoded (spaces cost three, slashes one). */
export function urlPayload(
  pattern: Pattern,
  size: number,
  encode: (text: string) => string = encodeURIComponent,
): string {
  const expansion = encode(pattern.make(1024)).length / pattern.make(1024).length;
  return encode(pattern.make(Math.floor(size / expansion)));
}

export const now = () => performance.timeOrigin + performance.now();

interface Ping {
  sent: number;
  answered: number;
}

/** Asks `url` every 10 ms from its own process, so the test's own work never delays a ping. */
export class Pinger {
  private readonly pings: Ping[] = [];
  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [sent, answered] = line.split(' ').map(Number);
      this.pings.push({ sent: sent!, answered: answered! });
      if (this.pings.length > 10_000) this.pings.splice(0, 5_000);
    });
  }

  static start(url: string): Pinger {
    const source = `
      const now = () => performance.timeOrigin + performance.now();
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      (async () => {
        for (;;) {
          const sent = now();
          try { await (await fetch(process.argv[1])).arrayBuffer(); } catch { await sleep(100); continue; }
          process.stdout.write(sent.toFixed(1) + ' ' + now().toFixed(1) + '\\n');
          await sleep(10);
        }
      })();`;
    return new Pinger(spawn(process.execPath, ['-e', source, url], { stdio: ['ignore', 'pipe', 'inherit'] }));
  }

  /** The longest answer time of a ping that was under way at some point between `from` and `to`. */
  stallBetween(from: number, to: number): number {
    let worst = 0;
    for (let i = this.pings.length - 1; i >= 0; i -= 1) {
      const ping = this.pings[i]!;
      if (ping.answered < from) break;
      if (ping.sent <= to) worst = Math.max(worst, ping.answered - ping.sent);
    }
    return worst;
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

export interface Timed {
  status: number;
  /** Sent to fully answered, as the client saw it. */
  ms: number;
  /** Longest ping answer while it ran: how long the server's event loop stood still. */
  stallMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request, timed; waits for the ping that was under way to come back before reading the stall. */
export async function timed(pinger: Pinger, url: string, init: RequestInit): Promise<Timed> {
  const from = now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  const to = now();
  await sleep(30);
  return { status: res.status, ms: to - from, stallMs: pinger.stallBetween(from, to) };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
