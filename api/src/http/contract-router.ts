import type { Access, BodyOf, Contract, ParamsOf, QueryOf, ResponseOf } from '@filamu/shared';
import { zValidator } from '@hono/zod-validator';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Principal } from './principal.ts';
import type { AppEnv } from './env.ts';
import { AppError, forbidden, validationError } from './errors.ts';

type UserPrincipal = Extract<Principal, { kind: 'user' }>;
type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

/** Who is calling, as narrow as the route's access makes it: a `user` or `admin` route always has a user. */
type PrincipalOf<A extends Access> = A extends 'user' | 'admin'
  ? UserPrincipal
  : A extends 'agent'
    ? AgentPrincipal
    : A extends 'account'
      ? Principal
      : Principal | undefined;

interface RouteInput<C extends Contract> {
  body: BodyOf<C>;
  params: ParamsOf<C>;
  query: QueryOf<C>;
  principal: PrincipalOf<C['access']>;
}

/**
 * The caller, checked against the access the contract names. `authorize` has already refused anyone else, so a
 * mismatch here is a wiring mistake; it still answers 403 rather than hand a handler the wrong kind of caller.
 */
function principalFor(access: Access, principal: Principal | undefined, refusal: string): Principal | undefined {
  const wanted = access === 'user' || access === 'admin' ? 'user' : access === 'agent' ? 'agent' : null;
  if (wanted && principal?.kind !== wanted) throw forbidden(refusal);
  if (access === 'account' && !principal) throw forbidden(refusal);
  return principal;
}

export type RouteHandler<C extends Contract> = (
  input: RouteInput<C>,
  c: Context<AppEnv>,
) => Promise<ResponseOf<C> | Response>;

export type Authorize = (access: Access) => MiddlewareHandler<AppEnv>;

const throwOnInvalid = (result: { success: boolean; error?: unknown }) => {
  if (!result.success) throw validationError(result.error as never);
};

/** Whether the request carries a body: HTTP/1.1 frames one with Transfer-Encoding or a non-zero Content-Length. */
export function framesBody(c: Context<AppEnv>): boolean {
  if (c.req.header('transfer-encoding') !== undefined) return true;
  const length = c.req.header('content-length');
  return length !== undefined && Number(length) !== 0;
}

export const NO_BODY_MESSAGE = 'This request takes no request body. Send it again without one.';

/**
 * A route that reads no body refuses one at once, from the headers alone, with a readable 413: answering normally
 * while megabytes still arrive let the connection be cut before the answer could be read.
 */
export const refuseBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (framesBody(c)) throw new AppError('payload_too_large', NO_BODY_MESSAGE);
  await next();
};

/** JSON bodies only: anything else is refused before it is parsed. */
const requireJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header('content-type');
  const hasBody = c.req.header('content-length') !== '0' && (type !== undefined || c.req.header('transfer-encoding'));
  // The media type exactly as the validator reads it: a type it would skip (application/json-seq) must not pass as {}.
  if (hasBody && type && !/^application\/([\w.-]+\+)?json$/i.test(type.split(';')[0]!.trim())) {
    throw new AppError('unsupported_media_type', 'Send the request body as application/json.');
  }
  await next();
};

/**
 * Binds a shared contract to a handler: a body on a route that takes none is refused first; then the access check,
 * before any byte of a body is read (a guest gets 401, not a body limit or a field error); then `readBody` (the body
 * limit, the unstorable-text check) on routes that take one; then the contract's zod schemas validate params, query
 * and body, and the handler's result is sent with the contract's status.
 */
export class ContractRouter {
  constructor(
    readonly app: Hono<AppEnv>,
    private readonly authorize: Authorize,
    private readonly readBody: MiddlewareHandler<AppEnv>[] = [],
    private readonly wrongCaller = 'You do not have permission to do this.',
  ) {}

  /** The same routes, refusing a caller of the wrong kind with this reason (why agents have nothing to pay). */
  refusingWith(reason: string): ContractRouter {
    return new ContractRouter(this.app, this.authorize, this.readBody, reason);
  }

  on<C extends Contract>(contract: C, handler: RouteHandler<C>): this {
    const middleware: MiddlewareHandler<AppEnv>[] = contract.body ? [] : [refuseBody];
    middleware.push(this.authorize(contract.access));
    if (contract.body) middleware.push(requireJson, ...this.readBody);
    if (contract.params) middleware.push(zValidator('param', contract.params, throwOnInvalid) as never);
    if (contract.query) middleware.push(zValidator('query', contract.query, throwOnInvalid) as never);
    if (contract.body) middleware.push(zValidator('json', contract.body, throwOnInvalid) as never);

    this.app.on(contract.method.toUpperCase(), [contract.path], ...(middleware as []), async (c: Context<AppEnv>) => {
      const req = c.req as unknown as { valid(target: string): unknown };
      const input = {
        params: contract.params ? req.valid('param') : undefined,
        query: contract.query ? req.valid('query') : undefined,
        body: contract.body ? req.valid('json') : undefined,
        principal: principalFor(contract.access, c.get('principal') as Principal | undefined, this.wrongCaller),
      } as RouteInput<C>;
      const result = await handler(input, c);
      if (result instanceof Response) return result;
      return c.json(result as object, contract.status ?? 200);
    });
    return this;
  }
}
