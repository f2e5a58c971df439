import fc from 'fast-check';
import { type JsonSchema, type Operation, objectShape, sampleValue, wrongTypeValue } from './schema.ts';

export const PERSONAS = ['guest', 'user', 'subscriber', 'agent', 'admin'] as const;
export type Persona = (typeof PERSONAS)[number];

/** One generated request: raw path and query (percent-encoding as sent), raw body text. */
export interface SweepRequest {
  persona: Persona;
  /** What makes it bad (poison) or extreme: printed with any violation. */
  kind: string;
  method: string;
  url: string;
  contentType?: string;
  body?: string;
}

/** Strings a person could type that are valid Unicode: right-to-left overrides, emoji, injection shapes. */
const ODD_STRINGS = [
  '\u202Egnp.exe',
  '🎬🍿👩🏾‍💻',
  'ﷺ مرحبا',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '\t\r\n',
  ' ',
  '%00',
  '\\u0000',
  'Z̴͑͠a̷l̶g̵o',
];
/** Strings Postgres cannot store: NUL; lone surrogates (not well-formed Unicode). */
const NUL_STRINGS = ['\u0000', 'a\u0000b', 'Robert\u0000); DROP TABLE users;--', '\u0000'.repeat(50)];
const SURROGATE_STRINGS = ['\ud800', 'x\udfffy', '\udc00\ud800', 'abc\ud83d'];
/** Integers around int4, int8 and the safe-integer edges (2^53 + 2 and ±2^63 as JSON numbers), and non-integers. */
export const NUMBER_EDGES = [
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  4294967296,
  9007199254740991,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  1e308,
  -1e308,
  0.5,
  -0.000001,
  -1,
  0,
];
/** Written raw into the JSON text: parses to Infinity. */
const INFINITY = '__sweep_infinity__';
export const BAD_DATES = [
  '0000-01-01T00:00',
  '0001-01-01T00:00',
  '1899-12-31T23:59',
  '275760-09-13T00:00',
  '2026-02-30T10:00',
  '2026-13-01T00:00',
  '9999-12-31T24:00',
  '2026-06-01 10:00',
];
export const EDGE_DATES = [
  '0000-01-01T00:00',
  '0001-01-01T00:00',
  '1970-01-01T00:00',
  '2000-01-01T00:00',
  '9999-12-31T23:59',
];
const BAD_SEGMENTS = [
  '%',
  '%E0%A4%A',
  '%ZZ',
  '%C0%80',
  '%ED%A0%80',
  '%FF%FE',
  'a'.repeat(4000),
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
  '__proto__',
  '-1',
  '2147483648',
  '%F0%9F%8E%AC',
  '%E2%80%AE',
  "1'%20OR%20'1'='1",
];
const NUL_SEGMENTS = ['%00', 'abc%00', '%00%00', '00000000-0000-4000-8000-000000000000%00'];
const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  '{"a":"raw\u0000nul"}',
  '\u0000',
  '{"a" 1}',
  '[1,2',
  '"',
];
const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'video/mp4',
  'application/json-seq',
  'application/jsonx',
];

export interface Context {
  /** Real row ids (plans, movies, people, downloads, payments) for uuid path params and fields. */
  ids: string[];
  bodyLimitBytes: number;
}

const isDateField = (name: string, schema: JsonSchema) => /date/i.test(name) && schema.type === 'string';
const isIntegerField = (schema: JsonSchema) => schema.type === 'integer' || schema.type === 'number';

function nested(depth: number, array: boolean): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = array ? [value] : { a: value };
  return value;
}

/** `__proto__` as an own, enumerable key (what JSON.parse makes of it), so JSON.stringify writes it. */
function withProtoKey(object: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...object };
  Object.defineProperty(copy, '__proto__', {
    value: { isAdmin: true },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

function toText(body: unknown): string {
  return JSON.stringify(body).replaceAll(`"${INFINITY}"`, '1e999');
}

function fillPath(op: Operation, ctx: Context, segments: Record<string, string>, pick: number): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (segments[name] !== undefined) return segments[name];
    const param = op.pathParams.find((p) => p.name === name);
    return param?.schema.format === 'uuid' ? ctx.ids[pick % ctx.ids.length]! : `tok-${pick}`;
  });
}

type Part = { kind: string; segments?: Record<string, string>; query?: string; contentType?: string; body?: string };

/** Poisoned parts: each makes the request one the server must refuse. */
function poisons(op: Operation, ctx: Context): fc.Arbitrary<Part>[] {
  const list: fc.Arbitrary<Part>[] = [];
  const pathNames = op.pathParams.map((p) => p.name);
  const queryNames = op.queryParams.map((p) => p.name);
  if (pathNames.length) {
    list.push(
      fc
        .record({ name: fc.constantFrom(...pathNames), seg: fc.constantFrom(...NUL_SEGMENTS) })
        .map(({ name, seg }) => ({
          kind: 'nul-in-path',
          segments: { [name]: seg },
        })),
      fc
        .record({ name: fc.constantFrom(...pathNames), seg: fc.constantFrom(...BAD_SEGMENTS) })
        .map(({ name, seg }) => ({
          kind: 'bad-path-param',
          segments: { [name]: seg },
        })),
    );
  }
  list.push(
    fc
      .record({
        key: fc.constantFrom(...queryNames, 'q', 'a%00b', '__proto__'),
        value: fc.constantFrom('%00', 'x%00y', '%00%00', 'Robert%00'),
      })
      .map(({ key, value }) => ({ kind: 'nul-in-query', query: `?${key}=${value}` })),
  );
  for (const param of op.queryParams) {
    const values = isIntegerField(param.schema)
      ? ['abc', '1e999', '-1', '0', '2147483648', '9223372036854775808', '1.5', 'NaN', 'Infinity', '', '1 2']
      : param.schema.enum
        ? ['nope', 'PENDING%20', '%00']
        : param.schema.maxLength
          ? ['a'.repeat(param.schema.maxLength + 1)]
          : [];
    if (values.length) {
      list.push(
        fc.constantFrom(...values).map((v) => ({ kind: `bad-query-${param.name}`, query: `?${param.name}=${v}` })),
      );
    }
  }
  if (!op.body) return list;

  const shape = objectShape(op.body);
  const props = Object.entries(shape?.properties ?? {});
  const base = (sampleValue(op.body, '', ctx.ids) ?? {}) as Record<string, unknown>;
  const json = (kind: string, body: unknown): Part => ({ kind, contentType: 'application/json', body: toText(body) });
  const required = shape?.required ?? [];
  if (required.length) {
    list.push(
      fc.constantFrom(...required).map((name) => {
        const { [name]: _dropped, ...rest } = base;
        return json('missing-required', rest);
      }),
    );
  }
  const typed = props.filter(([, s]) => wrongTypeValue(s, 0) !== undefined);
  if (typed.length) {
    list.push(
      fc
        .record({ prop: fc.constantFrom(...typed), pick: fc.nat(5) })
        .map(({ prop: [name, s], pick }) => json('wrong-type', { ...base, [name]: wrongTypeValue(s, pick) })),
      fc.record({ prop: fc.constantFrom(...typed), array: fc.boolean() }).map(({ prop: [name, s], array }) => {
        const asArray = s.type === 'array' ? false : s.type === 'object' ? true : array;
        const deep = nested(64, asArray);
        return json('deep-nesting', { ...base, [name]: s.type === 'array' ? [deep] : deep });
      }),
    );
  }
  const names = props.map(([name]) => name);
  list.push(
    fc
      .record({ name: fc.constantFrom(...names, 'extra'), value: fc.constantFrom(...NUL_STRINGS) })
      .map(({ name, value }) => json('nul-in-value', { ...base, [name]: value })),
    fc.constantFrom(...NUL_STRINGS).map((key) => json('nul-in-key', { ...base, [key]: 'x' })),
    fc
      .record({ name: fc.constantFrom(...names, 'extra'), value: fc.constantFrom(...SURROGATE_STRINGS) })
      .map(({ name, value }) => json('lone-surrogate', { ...base, [name]: value })),
    fc
      .constantFrom(...MALFORMED_JSON)
      .map((text) => ({ kind: 'malformed-json', contentType: 'application/json', body: text })),
    fc.constantFrom(...WRONG_TYPES).map((type) => ({
      kind: 'wrong-content-type',
      contentType: type,
      body: type.includes('form-urlencoded') ? 'a=%00&b=1' : toText(base),
    })),
    fc
      .constantFrom('[]', '"text"', '42', 'null', 'true', '[{"a":1}]', `${'['.repeat(200_000)}${']'.repeat(200_000)}`)
      .map((text) => ({
        kind: 'not-an-object',
        contentType: 'application/json',
        body: text,
      })),
    fc
      .constantFrom(1, 2)
      .map((extra) => json('too-large', { ...base, filler: 'x'.repeat(ctx.bodyLimitBytes + extra) })),
  );
  const bounded = props.filter(([, s]) => s.type === 'string' && s.maxLength !== undefined);
  if (bounded.length) {
    // Over the field's maximum, up to a quarter of the body limit: refused by validation, never stored or echoed.
    list.push(
      fc
        .record({ prop: fc.constantFrom(...bounded), big: fc.boolean() })
        .map(({ prop: [name, s], big }) =>
          json('huge-string', { ...base, [name]: 'é'.repeat(big ? ctx.bodyLimitBytes / 4 : s.maxLength! + 1) }),
        ),
    );
  }
  const integers = props.filter(([, s]) => isIntegerField(s));
  if (integers.length) {
    list.push(
      fc.record({ prop: fc.constantFrom(...integers), pick: fc.nat(100) }).map(({ prop: [name, s], pick }) => {
        const outside = [...NUMBER_EDGES, INFINITY].filter(
          (v) =>
            v === INFINITY ||
            (s.type === 'integer' && !Number.isSafeInteger(v)) ||
            (s.minimum !== undefined && (v as number) < s.minimum) ||
            (s.maximum !== undefined && (v as number) > s.maximum),
        );
        return json('number-out-of-range', { ...base, [name]: outside[pick % outside.length] });
      }),
    );
  }
  const dates = props.filter(([name, s]) => isDateField(name, s));
  if (dates.length) {
    list.push(
      fc
        .record({ prop: fc.constantFrom(...dates), value: fc.constantFrom(...BAD_DATES) })
        .map(({ prop: [name], value }) => json('bad-date', { ...base, [name]: value })),
    );
  }
  return list;
}

/** Extreme but possibly valid parts: the server may accept them; it must never fail on them. */
function extremes(op: Operation, ctx: Context): fc.Arbitrary<Part>[] {
  const list: fc.Arbitrary<Part>[] = [];
  for (const param of op.queryParams) {
    const values = isIntegerField(param.schema)
      ? [String(param.schema.maximum ?? 2147483647), String(param.schema.minimum ?? 0)]
      : ['%F0%9F%8E%AC', '%E2%80%AEabc', '%27%20OR%201%3D1%20--', encodeURIComponent('ﷺ'), '%25', '%'];
    list.push(
      fc.constantFrom(...values).map((v) => ({ kind: `edge-query-${param.name}`, query: `?${param.name}=${v}` })),
    );
  }
  if (!op.body) return list;
  const shape = objectShape(op.body);
  const props = Object.entries(shape?.properties ?? {});
  if (!props.length) return list;
  const base = (sampleValue(op.body, '', ctx.ids) ?? {}) as Record<string, unknown>;
  const json = (kind: string, body: unknown): Part => ({ kind, contentType: 'application/json', body: toText(body) });
  list.push(
    fc
      .record({ prop: fc.constantFrom(...props), pick: fc.nat(100), proto: fc.boolean() })
      .map(({ prop: [name, s], pick, proto }) => {
        let value: unknown;
        if (isDateField(name, s)) value = EDGE_DATES[pick % EDGE_DATES.length];
        else if (isIntegerField(s)) value = NUMBER_EDGES[pick % NUMBER_EDGES.length];
        else if (s.type === 'string') {
          const odd = ODD_STRINGS[pick % ODD_STRINGS.length]!;
          value = pick % 3 === 0 && s.maxLength ? odd.repeat(s.maxLength).slice(0, s.maxLength) : odd;
        } else value = base[name];
        const body = { ...base, [name]: value };
        return json(`edge-${name}`, proto ? withProtoKey(body) : body);
      }),
  );
  return list;
}

function request(op: Operation, ctx: Context, parts: fc.Arbitrary<Part>[]): fc.Arbitrary<SweepRequest> {
  return fc
    .record({ persona: fc.constantFrom(...PERSONAS), part: fc.oneof(...parts), pick: fc.nat(1000) })
    .map(({ persona, part, pick }) => {
      let body = part.body ?? (op.body ? toText(sampleValue(op.body, '', ctx.ids)) : undefined);
      // A third of the object bodies also carry `__proto__` (prototype pollution must not change the outcome).
      if (body?.startsWith('{"') && pick % 3 === 0) body = `{"__proto__":{"isAdmin":true},${body.slice(1)}`;
      return {
        persona,
        kind: part.kind,
        method: op.method.toUpperCase(),
        url: `${fillPath(op, ctx, part.segments ?? {}, pick)}${part.query ?? ''}`,
        contentType: part.contentType ?? (body !== undefined ? 'application/json' : undefined),
        body,
      };
    });
}

/** Requests the server must refuse (each carries at least one poison). */
export const refusedRequests = (op: Operation, ctx: Context) => request(op, ctx, poisons(op, ctx));

/** Valid-but-extreme requests (may be accepted); undefined when the operation takes no input. */
export function extremeRequests(op: Operation, ctx: Context): fc.Arbitrary<SweepRequest> | undefined {
  const parts = extremes(op, ctx);
  return parts.length ? request(op, ctx, parts) : undefined;
}
