import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from './deps.ts';
import { agentRoutes } from './features/agents/routes.ts';
import { analyticsRoutes } from './features/analytics/routes.ts';
import { createAuthorize } from './features/auth/authorize.ts';
import { authRoutes } from './features/auth/routes.ts';
import { catalogRoutes } from './features/catalog/routes.ts';
import { deviceCheckRoutes } from './features/device-checks/routes.ts';
import { parentalPinRoutes } from './features/parental-pin/routes.ts';
import { downloadRoutes } from './features/downloads/routes.ts';
import { licenceRoutes } from './features/licences/routes.ts';
import { filmTransferRoutes } from './features/film-transfer/routes.ts';
import { messageRoutes } from './features/messages/routes.ts';
import { nightBundleRoutes } from './features/night-bundle/routes.ts';
import { httpMetrics } from './features/metrics/http.ts';
import { metricsRoutes } from './features/metrics/routes.ts';
import { adminPaymentRoutes } from './features/payments/admin-routes.ts';
import { SANDBOX_MOUNT } from './features/payments/gateway.ts';
import { NOTIFY_PATH, notifyBodyLimit, paymentRoutes } from './features/payments/routes.ts';
import { planRoutes } from './features/plans/routes.ts';
import { mountPreview } from './features/preview/routes.ts';
import { pushRoutes } from './features/push/routes.ts';
import { settingsRoutes } from './features/settings/routes.ts';
import { DELIVERY_REPORT_PATH, deliveryReportBodyLimit, smsRoutes } from './features/sms/routes.ts';
import { FILES_MOUNT } from './features/storage/local.ts';
import { sealedKeyRoutes } from './features/sealed-keys/routes.ts';
import { subscriberRoutes } from './features/subscribers/routes.ts';
import { systemRoutes } from './features/system/routes.ts';
import { watchingRoutes } from './features/watching/routes.ts';
import { subtitleRoutes } from './features/subtitles/routes.ts';
import { USSD_CALLBACK_PATH, USSD_OPENAPI, ussdBodyLimit, ussdRoutes } from './features/ussd/routes.ts';
import { ContractRouter, refuseBody } from './http/contract-router.ts';
import type { AppEnv } from './http/env.ts';
import { compressJson } from './http/compress-json.ts';
import { AppError, errorResponse, handleError } from './http/errors.ts';
import { corsPolicy, rejectUnusedMethods, requestContext, requestLogging, securityHeaders } from './http/middleware.ts';
import { mountPwa } from './http/static-app.ts';
import { refuseUnstorableBody, refuseUnstorableUrl } from './http/unstorable-text.ts';
import type { Lifecycle } from './lifecycle/lifecycle.ts';

export interface AppOptions {
  /** Folder of the built PWA to serve at `/`; omitted in API-only tests. */
  pwaDistDir?: string;
  /** Readiness turns 503 once this says the process is shutting down; default: never. */
  lifecycle?: Lifecycle;
}

/** Builds the whole HTTP app from its dependencies; nothing here reads the environment. */
export function createApp(deps: Deps, options: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use(requestContext);
  app.use(requestLogging(deps.logger));
  app.use(httpMetrics(deps.metrics, [FILES_MOUNT, SANDBOX_MOUNT]));
  app.use(securityHeaders(deps.config));
  app.use(rejectUnusedMethods);
  app.use(refuseUnstorableUrl);
  // Sandbox mode only: the DPO simulator, raw XML, outside /api and its JSON rules.
  if (deps.dpoSandbox) app.route(SANDBOX_MOUNT, deps.dpoSandbox.app);
  // The SMS simulator is not mounted: the adapter calls it in process, and a public route let anyone write texts
  // into the inbox admins read (decision 0203).
  // The USSD simulator is not mounted either: it posts to the callback route below in process, with a secret made at
  // start that never leaves the process; its dial route answers 404 unless configuration runs it (decision 0249).
  deps.ussd.simulator?.bind(async (request) => app.fetch(request));
  // Local storage only: signed, ranged file links (S3 serves its own).
  if (deps.fileServer) app.route(FILES_MOUNT, deps.fileServer);

  const api = new Hono<AppEnv>();
  api.onError(handleError);
  // Outermost, so it sees the final answer, errors included.
  api.use(compressJson());
  api.use(corsPolicy(deps.config));
  // The three callbacks read their bodies themselves, each under its own small limit.
  api.use(NOTIFY_PATH, notifyBodyLimit, refuseUnstorableBody);
  api.use(DELIVERY_REPORT_PATH, deliveryReportBodyLimit, refuseUnstorableBody);
  api.use(USSD_CALLBACK_PATH, ussdBodyLimit, refuseUnstorableBody);
  // No GET in the API takes a body (the metrics and OpenAPI routes included): refused from the headers (decision 0206).
  api.on(['GET', 'HEAD'], '*', refuseBody);
  // API answers are not stored, unless a route chose revalidation itself (the library: src/http/revalidate.ts).
  api.use(async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  // A route's body is read only once its caller is allowed (ContractRouter): a guest never costs a megabyte.
  const readBody = [
    bodyLimit({
      maxSize: deps.config.bodyLimitBytes,
      onError: () => {
        throw new AppError('payload_too_large', `Request bodies are limited to ${deps.config.bodyLimitBytes} bytes.`);
      },
    }),
    refuseUnstorableBody,
  ];
  const router = new ContractRouter(api, createAuthorize(deps), readBody);
  systemRoutes(router, deps, options.lifecycle ?? { shuttingDown: false }, USSD_OPENAPI);
  authRoutes(router, deps);
  agentRoutes(router, deps);
  paymentRoutes(router, deps);
  adminPaymentRoutes(router, deps);
  planRoutes(router, deps);
  subscriberRoutes(router, deps);
  catalogRoutes(router, deps);
  subtitleRoutes(router, deps);
  downloadRoutes(router, deps);
  licenceRoutes(router, deps);
  filmTransferRoutes(router, deps);
  sealedKeyRoutes(router, deps);
  ussdRoutes(router, deps);
  analyticsRoutes(router, deps);
  settingsRoutes(router, deps);
  metricsRoutes(router, deps);
  smsRoutes(router, deps);
  pushRoutes(router, deps);
  messageRoutes(router, deps);
  watchingRoutes(router, deps);
  parentalPinRoutes(router, deps);
  deviceCheckRoutes(router, deps);
  nightBundleRoutes(router, deps);
  api.all('*', (c) => errorResponse(c, new AppError('not_found', 'No such API route.')));
  app.route('/api', api);

  // The public preview is server-rendered HTML, not an API answer and not a file of the build.
  mountPreview(app, deps);
  if (options.pwaDistDir) mountPwa(app, options.pwaDistDir);
  app.notFound((c) => errorResponse(c, new AppError('not_found', 'Not found.')));
  return app;
}
