import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route. The server enforces it; the OpenAPI document and the auth-matrix tests read it.
 * - public: anyone
 * - user: a signed-in user (admin or not)
 * - agent: a signed-in agent
 * - account: a signed-in user or agent
 * - admin: a signed-in user with isAdmin
 */
export type Access = 'public' | 'user' | 'agent' | 'account' | 'admin';

/** One API route: the single source for the server's validation, the client's parsing and the OpenAPI document. */
export interface Contract {
  method: HttpMethod;
  /** Path under /api, Hono style (`/agents/:id`). */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Success status, 200 unless stated. */
  status?: 200 | 201;
  /** Media type of the success answer when it is not JSON (its text is then the value `response` checks). */
  contentType?: 'text/vtt';
}

export function defineContract<const C extends Contract>(contract: C): C {
  return contract;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;

export type BodyOf<C extends Contract> = Infer<C['body']>;
export type ParamsOf<C extends Contract> = Infer<C['params']>;
export type QueryOf<C extends Contract> = Infer<C['query']>;
export type ResponseOf<C extends Contract> = z.output<C['response']>;

/** What a client passes to call a contract: the schemas' input types. */
export type RequestOf<C extends Contract> = (C['body'] extends z.ZodType
  ? { body: InferIn<C['body']> }
  : { body?: undefined }) &
  (C['params'] extends z.ZodType ? { params: InferIn<C['params']> } : { params?: undefined }) &
  (C['query'] extends z.ZodType ? { query?: InferIn<C['query']> } : { query?: undefined });

/** `/agents/:id` + `{ id: 'x' }` → `/agents/x` */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
}
