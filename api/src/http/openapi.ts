import { ApiErrorBody, type Contract } from '@filamu/shared';
import { z } from 'zod';

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: toSchema(ApiErrorBody, 'output') } },
});

/**
 * The OpenAPI 3 document, generated from the same contracts the routes validate with; `extraPaths` documents the
 * few routes that are not JSON contracts (e.g. `/api/metrics`, Prometheus text).
 */
export function buildOpenApiDocument(contracts: Contract[], extraPaths: Record<string, object> = {}): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const contract of contracts) {
    const path = `/api${contract.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
    const responses: Record<string, object> = {
      [String(contract.status ?? 200)]: {
        description: 'Success',
        content: { [contract.contentType ?? 'application/json']: { schema: toSchema(contract.response, 'output') } },
      },
      '400': errorResponse('Invalid request'),
    };
    if (contract.access !== 'public') responses['401'] = errorResponse('Not signed in, or the session has ended');
    if (contract.access === 'admin') responses['403'] = errorResponse('Not an administrator');
    else if (contract.access !== 'public' && contract.access !== 'account')
      responses['403'] = errorResponse(`Only for ${contract.access} accounts`);
    paths[path] ??= {};
    paths[path][contract.method] = {
      summary: contract.summary,
      tags: [contract.tag],
      'x-access': contract.access,
      ...(contract.access !== 'public' && { security: [{ bearerAuth: [] }] }),
      parameters: [...parameters(contract.params, 'path'), ...parameters(contract.query, 'query')],
      ...(contract.body && {
        requestBody: { required: true, content: { 'application/json': { schema: toSchema(contract.body, 'input') } } },
      }),
      responses,
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Filamu API',
      version: '1.0.0',
      description: 'Movie downloads by subscription, paid with mobile money.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN of the server.' },
      },
    },
    paths: { ...paths, ...extraPaths },
  };
}
