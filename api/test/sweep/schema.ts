/** The few JSON-schema shapes the OpenAPI document uses, and what the sweep reads from them. */
export interface JsonSchema {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
}

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/api/agents/{id}`. */
  path: string;
  access: string;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
}

/** Every path × method of the document, read from the document only. */
export function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        'x-access': string;
        parameters?: { name: string; in: string; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      };
      const params = op.parameters ?? [];
      operations.push({
        method,
        path,
        access: op['x-access'],
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: op.requestBody?.content['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** The object shape of a body schema (the first branch of a union), or undefined for non-object bodies. */
export function objectShape(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (schema.type === 'object') return schema;
  const branch = schema.oneOf?.[0] ?? schema.anyOf?.find((s) => s.type === 'object');
  return branch ? objectShape(branch) : undefined;
}

/** The JSON types a schema accepts ('any' when it says nothing). */
export function acceptedTypes(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const visit = (s: JsonSchema) => {
    if (s.anyOf || s.oneOf) (s.anyOf ?? s.oneOf)!.forEach(visit);
    else if (s.type) types.add(s.type === 'integer' ? 'number' : s.type);
    else if (s.enum) s.enum.forEach((v) => types.add(v === null ? 'null' : typeof v));
    else types.add('any');
    if (s.nullable) types.add('null');
  };
  visit(schema);
  return types;
}

/** A value of a JSON type no branch of the schema accepts; undefined when the schema accepts anything. */
export function wrongTypeValue(schema: JsonSchema, pick: number): unknown {
  const accepted = acceptedTypes(schema);
  if (accepted.has('any')) return undefined;
  const candidates: [string, unknown][] = [
    ['number', 12345],
    ['string', 'not-the-right-type'],
    ['boolean', true],
    ['object', { nested: { value: 1 } }],
    ['array', [1, 'two', null]],
    ['null', null],
  ];
  const wrong = candidates.filter(([type]) => !accepted.has(type));
  return wrong[pick % wrong.length]![1];
}

let unique = 0;
/** Field names whose valid values the schema cannot spell (patterns, transforms). */
const HINTS: Record<string, () => unknown> = {
  email: () => `sweep${++unique}@example.com`,
  identifier: () => `sweep${++unique}@example.com`,
  phone: () => `0772${String(100000 + (++unique % 900000))}`,
  phoneNumber: () => '0772123456',
  password: () => 'correct horse battery',
  // Never the personas' own password: an accepted change would sign them out of the rest of the sweep.
  currentPassword: () => 'not the current password',
  newPassword: () => 'another horse battery',
  global_expiry_date: () => '2030-06-30T12:00',
  category: () => 'English',
};

/**
 * A plausible valid value of a schema: a baseline the extreme-value cases change one field of. `ids` supplies
 * real row ids for uuid fields. Not always valid (patterns are not solved); good enough to reach the verbs often.
 */
export function sampleValue(schema: JsonSchema, name: string, ids: string[]): unknown {
  if (HINTS[name]) return HINTS[name]();
  if (schema.oneOf || schema.anyOf) return sampleValue((schema.oneOf ?? schema.anyOf)![0]!, name, ids);
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) out[key] = sampleValue(child, key, ids);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        sampleValue(schema.items ?? {}, name, ids),
      );
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return ids[unique++ % ids.length];
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    default:
      return 'x';
  }
}
