import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { TokenService } from './features/auth/tokens.ts';
import type { Catalogue } from './features/catalog/catalogue.ts';
import type { ContentKeys } from './features/content-keys/content-keys.ts';
import type { Deliveries } from './features/downloads/deliveries.ts';
import type { LicenceSigner } from './features/licences/signing.ts';
import type { Mailer } from './features/mail/mailer.ts';
import type { Metrics } from './features/metrics/registry.ts';
import type { PaymentGateway } from './features/payments/dpo/port.ts';
import type { DpoSandbox } from './features/payments/dpo/sandbox.ts';
import type { PushGateway } from './features/push/gateway.ts';
import type { SmsGateway } from './features/sms/adapter.ts';
import type { SealedKeyRoots } from './features/sealed-keys/crypto.ts';
import type { SmsSimulator } from './features/sms/simulator.ts';
import type { ObjectStorage } from './features/storage/storage.ts';
import type { TranscodeHub } from './features/transcode/hub.ts';
import type { UssdRuntime } from './features/ussd/runtime.ts';
import type { AppEnv } from './http/env.ts';
import type { Clock } from './lib/clock.ts';

/** Everything with a side effect that the app uses, built once in server.ts (or by a test). */
export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  /** Made by createLogger (bootstrap.ts), whose mixin adds the request id or job run id to every line. */
  logger: Logger;
  tokens: TokenService;
  mailer: Mailer;
  /** DPO API3G, or in sandbox mode the adapter pointed at the simulator below. */
  payments: PaymentGateway;
  /** Sandbox mode (no DPO_COMPANY_TOKEN): the DPO simulator the app mounts; null against the real DPO. */
  dpoSandbox: DpoSandbox | null;
  /** Africa's Talking, or without an account the adapter pointed at the simulator below; the SMS outbox sends with it. */
  sms: SmsGateway;
  /** Simulator mode (no AT_API_KEY): the Africa's Talking simulator the app mounts; null against the real gateway. */
  smsSimulator: SmsSimulator | null;
  /** USSD (decision 0249): the secret Africa's Talking's callback carries, and without a gateway the simulator. */
  ussd: UssdRuntime;
  /** Web Push (VAPID-signed, encrypted by web-push); the push outbox sends with it. */
  push: PushGateway;
  /** Movies and thumbnails: the local folder or S3. */
  storage: ObjectStorage;
  /** Local storage only: the `/files` server for signed links and public thumbnails; null with S3. */
  fileServer: Hono<AppEnv> | null;
  /** Local storage: the bytes `/files` delivered under each download, as this process is writing them. */
  deliveries: Deliveries;
  /** The live catalogue cached in this process, checked against the database's catalogue version. */
  catalogue: Catalogue;
  /** This app's Prometheus registry and metrics (never the process-wide default registry). */
  metrics: Metrics;
  /** Each title's content key, sealed under the master key in the database (decision 0229). */
  contentKeys: ContentKeys;
  /** The two secrets of sealed film keys, derived from the content master secret (decision 0249); never logged. */
  sealedKeyRoots: SealedKeyRoots;
  /** Signs licences with the P-256 key kept in app_secrets (decision 0230). */
  licenceSigner: LicenceSigner;
  /** ffmpeg for renditions (null inside when not installed: originals only), the pg-boss queue and the runner signals. */
  transcode: TranscodeHub;
}
