import { createHash, timingSafeEqual } from 'node:crypto';
import { canonicalUgandaPhone, contracts, UssdCallbackRequest } from '@filamu/shared';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { clientIp } from '../auth/client-ip.ts';
import { answerUssd } from './menu.ts';
import { answerBody, USSD_BODY_LIMIT_BYTES, USSD_CALLBACK_PATH } from './protocol.ts';

export { USSD_CALLBACK_PATH } from './protocol.ts';

/** Mounted ahead of the API's body reader: a callback is a few hundred bytes of form fields. */
export const ussdBodyLimit = bodyLimit({
  maxSize: USSD_BODY_LIMIT_BYTES,
  onError: () => {
    throw new AppError('payload_too_large', `USSD callbacks are limited to ${USSD_BODY_LIMIT_BYTES} bytes.`);
  },
});

/** The callback in the OpenAPI document (not a JSON contract), so the request sweeps reach it too. */
export const USSD_OPENAPI: Record<string, object> = {
  [`/api${USSD_CALLBACK_PATH}`]: {
    post: {
      summary:
        "Africa's Talking's USSD callback: form fields in, `CON <screen>` or `END <screen>` as text/plain out; only with the configured secret (and from the listed addresses)",
      tags: ['Unlock without data'],
      'x-access': 'gateway secret',
      parameters: [{ name: 'secret', in: 'query', required: true, schema: { type: 'string', maxLength: 200 } }],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['sessionId', 'serviceCode', 'phoneNumber'],
              properties: {
                sessionId: { type: 'string', maxLength: 100 },
                serviceCode: { type: 'string', maxLength: 40 },
                phoneNumber: { type: 'string', maxLength: 40 },
                networkCode: { type: 'string', maxLength: 20 },
                text: { type: 'string', maxLength: 300 },
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'The screen', content: { 'text/plain': { schema: { type: 'string' } } } },
        '400': { description: 'Not a USSD callback (error envelope)' },
        '403': { description: 'Wrong secret or address (error envelope)' },
        '404': { description: 'USSD is off: no gateway and no simulator (error envelope)' },
      },
    },
  },
};

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));
const FORM_TYPE = 'application/x-www-form-urlencoded';

export function ussdRoutes(router: ContractRouter, deps: Deps): void {
  // Africa's Talking's USSD callback: form-encoded in, `CON …`/`END …` text out, not a JSON contract. The gateway does
  // not sign it, so the URL carries a secret (and, when listed, only the gateway's addresses may call); the
  // simulator calls it in process with its own (decision 0249).
  router.app.post(USSD_CALLBACK_PATH, async (c) => {
    const secret = deps.ussd.callbackSecret;
    if (!secret) throw new AppError('not_found', 'No such API route.');
    if (!sameSecret(c.req.query('secret') ?? '', secret)) throw new AppError('forbidden', 'Not allowed.');
    const allowed = deps.config.ussd.allowedIps;
    if (allowed.length > 0 && !allowed.includes(clientIp(c, deps.config.trustProxy))) {
      throw new AppError('forbidden', 'Not allowed.');
    }
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== FORM_TYPE) throw new AppError('unsupported_media_type', `Send the callback as ${FORM_TYPE}.`);
    const form = new URLSearchParams(await c.req.text());
    const field = (name: string) => form.get(name) ?? undefined;
    const parsed = UssdCallbackRequest.safeParse({
      sessionId: field('sessionId'),
      serviceCode: field('serviceCode'),
      phoneNumber: field('phoneNumber'),
      networkCode: field('networkCode'),
      text: field('text'),
    });
    if (!parsed.success) throw validationError(parsed.error);
    const answer = await answerUssd(deps, parsed.data);
    return c.text(answerBody(answer), 200);
  });

  router.on(contracts.unlock.ussdSimulatorDial, async ({ body }) => {
    const simulator = deps.ussd.simulator;
    if (!simulator) throw new AppError('not_found', 'USSD goes to the real gateway here, not the simulator.');
    // The gateway sends numbers in international form.
    const canonical = canonicalUgandaPhone(body.phoneNumber);
    return simulator.dial(canonical ? `+${canonical}` : body.phoneNumber, body.inputs);
  });
}
