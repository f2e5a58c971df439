import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectDbPool, collectJobLag } from './collectors.ts';
import type { MetricsParts } from './parts.ts';

/** The background jobs (lib/interval-job.ts passes), as they appear in the `job` label. */
export type JobName =
  'reconciler' | 'stale_sweep' | 'mail' | 'sms' | 'reminders' | 'push' | 'push_sweep' | 'night_window_push';

/** Bytes the local `/files` server sent and stored; it counts through this port, metrics knows no storage. */
export interface FileTraffic {
  sent(bytes: number): void;
  received(bytes: number): void;
}

/**
 * Gauges read on scrape that a feature owns (the SMS budget: sms/budget-metrics.ts): the wiring hands them to
 * `createMetrics`, which registers them, so metrics reports a feature's state without importing it.
 */
export type ScrapeCollector = (registry: Registry) => void;

/**
 * Every metric the app exports (names, labels and the alerts they serve: ADR 0094). Label values are route
 * patterns, codes and outcomes only, never an id, an address or a token.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  jobRuns: Counter<'job' | 'outcome'>;
  jobDuration: Histogram<'job'>;
  jobLastSuccess: Gauge<'job'>;
  paymentVerifications: Counter<'code' | 'outcome'>;
  paymentActivations: Counter;
  paymentCharges: Counter<'result'>;
  downloadGrants: Counter<'result'>;
  /** Licences issued (decision 0230), by way: download, redownload (moved from another phone), transfer. */
  licencesIssued: Counter<'way'>;
  /**
   * Attempts at sign-in or recovery from an address over its ceiling (decision 0194): `delayed` (answered late),
   * `proof_required` (asked for a proof of work), `proof_accepted` (came back with one).
   */
  addressCeiling: Counter<'budget' | 'step'>;
  /** Bytes the local `/files` server sent (download bodies) and stored (uploads). */
  fileTraffic: FileTraffic;
  /**
   * Bytes handed out under download links, by the size downloaded (re-fetches included): counted by `/files` with the
   * local driver, from the clients' progress reports with S3 (decision 0126).
   */
  downloadBytes: Counter<'size'>;
}

/** One registry per app instance: tests build many apps in one process, and each must count only its own. */
export function createMetrics(parts: MetricsParts, collectors: readonly ScrapeCollector[] = []): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process metrics (event loop lag, memory, GC) start timers and observers: only when someone may scrape them.
  if (parts.config.metricsToken) collectDefaultMetrics({ register: registry });
  collectJobLag(parts, registry);
  collectDbPool(parts.database, registry);
  for (const collect of collectors) collect(registry);

  const fileBytesSent = new Counter({
    name: 'filamu_file_bytes_sent_total',
    help: 'Bytes of /files response bodies written to clients (a cut connection counts what was sent).',
    registers,
  });
  const fileBytesReceived = new Counter({
    name: 'filamu_file_bytes_received_total',
    help: 'Bytes of uploads stored by the local /files server (whole objects and multipart parts).',
    registers,
  });

  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to the response head (a streamed body, e.g. /files, continues after), by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    jobRuns: new Counter({
      name: 'filamu_job_runs_total',
      help: 'Background job passes, by job and outcome (ok or error).',
      labelNames: ['job', 'outcome'],
      registers,
    }),
    jobDuration: new Histogram({
      name: 'filamu_job_duration_seconds',
      help: 'Duration of background job passes.',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    }),
    jobLastSuccess: new Gauge({
      name: 'filamu_job_last_success_timestamp_seconds',
      help: 'Unix time of the last pass of each job that ended without error (in this process).',
      labelNames: ['job'],
      registers,
    }),
    paymentVerifications: new Counter({
      name: 'filamu_payment_verifications_total',
      help: 'DPO verifyToken answers, by DPO result code and what it meant (gateway_error: no answer).',
      labelNames: ['code', 'outcome'],
      registers,
    }),
    paymentActivations: new Counter({
      name: 'filamu_payment_activations_total',
      help: 'Subscriptions activated by a completed payment.',
      registers,
    }),
    paymentCharges: new Counter({
      name: 'filamu_payment_charges_total',
      help: 'Mobile money charge requests (ChargeTokenMobile), by result.',
      labelNames: ['result'],
      registers,
    }),
    downloadGrants: new Counter({
      name: 'filamu_download_grants_total',
      help: 'Download grants: granted, resumed, repeated (same attempt), or the refusal code.',
      labelNames: ['result'],
      registers,
    }),
    licencesIssued: new Counter({
      name: 'filamu_licences_issued_total',
      help: 'Licences issued to a phone, by way: download, redownload (moved from another phone), transfer.',
      labelNames: ['way'],
      registers,
    }),
    addressCeiling: new Counter({
      name: 'filamu_address_ceiling_total',
      help: 'Sign-in and recovery attempts from an address over its ceiling, by budget and step (delayed, proof_required, proof_accepted).',
      labelNames: ['budget', 'step'],
      registers,
    }),
    downloadBytes: new Counter({
      name: 'filamu_download_bytes_total',
      help: 'Bytes fetched under download links, by size (small-hevc, small, standard, hd, original), re-fetches included.',
      labelNames: ['size'],
      registers,
    }),
    fileTraffic: {
      sent: (bytes) => fileBytesSent.inc(bytes),
      received: (bytes) => fileBytesReceived.inc(bytes),
    },
  };
}

/** A DPO result code as a label: DPO's codes are three digits; anything else is folded so it cannot grow the label. */
export function dpoCodeLabel(code: string | null | undefined): string {
  const trimmed = (code ?? '').trim();
  if (trimmed === '') return 'none';
  return /^\d{3}$/.test(trimmed) ? trimmed : 'other';
}
