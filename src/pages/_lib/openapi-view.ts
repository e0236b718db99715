/**
 * Turns the OpenAPI document (functions/openapi.ts) into rows the /api/ page prints: parameters with their
 * bounds and defaults, and the response's fields flattened to dotted paths. Pure, so tests can pin it.
 */

/** The part of a JSON Schema the page reads. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  example?: unknown;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  example?: unknown;
}

interface OpenApiResponse {
  description?: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  responses?: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, { get?: OpenApiOperation }>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One line of a field table: `tags[].value`, its type, and what it means. */
export interface FieldRow {
  path: string;
  type: string;
  description: string;
  /** For a field whose type depends on a discriminator (`factors[].value` by `id`): one entry per case. */
  cases?: { when: string; type: string; description: string }[];
}

/** Resolves `#/components/schemas/X` against the document and `#/$defs/X` against the schema's root. */
export function resolveRef(doc: OpenApiDocument, schema: JsonSchema, root: JsonSchema = schema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 16; hops++) {
    const ref = current.$ref;
    const components = /^#\/components\/schemas\/(.+)$/.exec(ref);
    const defs = /^#\/\$defs\/(.+)$/.exec(ref);
    const target = components
      ? doc.components?.schemas?.[decodeURIComponent(components[1]!)]
      : defs
        ? root.$defs?.[decodeURIComponent(defs[1]!)]
        : undefined;
    if (!target) throw new Error(`The OpenAPI document has no target for ${ref}`);
    current = target;
  }
  return current;
}

/**
 * Resolves a schema and tells which root its own `#/$defs/` references are relative to: a component reached
 * through `#/components/schemas/X` carries its own `$defs`.
 */
function enter(doc: OpenApiDocument, schema: JsonSchema, root: JsonSchema): { schema: JsonSchema; root: JsonSchema } {
  const resolved = resolveRef(doc, schema, root);
  return { schema: resolved, root: schema.$ref?.startsWith('#/components/') ? resolved : root };
}

/**
 * A schema's alternatives, with `null` split off: `string | null` → `{ options: [string], nullable: true }`. A union
 * beside properties (a folded union, src/lib/json-schema-hoist.ts) gives each member with the properties it shares.
 */
function alternatives(schema: JsonSchema): { options: JsonSchema[]; nullable: boolean } {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const options = union
      .filter((option) => option.type !== 'null')
      .map((option) => (schema.properties ? withShared(schema, option) : option));
    return { options, nullable: options.length < union.length };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    return { options: types.map((type) => ({ ...schema, type })), nullable: types.length < schema.type.length };
  }
  return { options: [schema], nullable: false };
}

/** A member of a folded union with what is said beside it: the shared properties, each merged with its own part. */
function withShared(schema: JsonSchema, member: JsonSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...schema.properties };
  for (const [name, own] of Object.entries(member.properties ?? {})) properties[name] = { ...properties[name], ...own };
  const required = [...new Set([...(schema.required ?? []), ...(member.required ?? [])])];
  return { type: schema.type, ...member, required, properties };
}

/** A short type with its bounds, e.g. `integer, 1–90, default 7` or `string, one of "IN", "US"`. */
export function describeType(doc: OpenApiDocument, input: JsonSchema, outerRoot: JsonSchema = input): string {
  const { schema, root } = enter(doc, input, outerRoot);
  const { options, nullable } = alternatives(schema);
  const parts = [...new Set(options.map((option) => describeOne(doc, resolveRef(doc, option, root), root)))];
  let text = parts.length > 0 ? parts.join(' | ') : 'any';
  if (nullable) text += ' | null';
  if (schema.default !== undefined) text += `, default ${JSON.stringify(schema.default)}`;
  return text;
}

function describeOne(doc: OpenApiDocument, schema: JsonSchema, root: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  const type = typeof schema.type === 'string' ? schema.type : schema.properties ? 'object' : 'any';
  const bounds: string[] = [];
  const range = (min?: number, max?: number, unit = '') => {
    if (min !== undefined && min === max) bounds.push(`exactly ${min}${unit}`);
    else if (min !== undefined && max !== undefined) bounds.push(`${min}–${max}${unit}`);
    else if (min !== undefined) bounds.push(`≥ ${min}${unit}`);
    else if (max !== undefined) bounds.push(`≤ ${max}${unit}`);
  };
  // zod writes ±MAX_SAFE_INTEGER as the bounds of any integer: that is no bound a reader needs.
  const bounded = (value?: number) =>
    value !== undefined && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
  range(bounded(schema.minimum), bounded(schema.maximum));
  if (schema.exclusiveMinimum !== undefined) bounds.push(`> ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) bounds.push(`< ${schema.exclusiveMaximum}`);
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minItems, schema.maxItems, ' items');
  if (schema.format) bounds.push(schema.format);
  // A format (date-time) says what its generated pattern spells out at length.
  if (schema.pattern && !schema.format) bounds.push(`pattern ${schema.pattern}`);
  const head = type === 'array' && schema.items ? `array of ${describeItems(doc, schema.items, root)}` : type;
  return bounds.length > 0 ? `${head} (${bounds.join(', ')})` : head;
}

function describeItems(doc: OpenApiDocument, items: JsonSchema, root: JsonSchema): string {
  const resolved = resolveRef(doc, items, root);
  return resolved.properties || (resolved.anyOf ?? resolved.oneOf)?.some((o) => resolveRef(doc, o, root).properties)
    ? 'objects'
    : describeType(doc, resolved, root);
}

/**
 * Flattens a response schema into one row per field, depth first: objects by property, arrays of objects as
 * `name[].field`, unions of objects (the title score's factors) merged by property name.
 */
export function fieldRows(
  doc: OpenApiDocument,
  input: JsonSchema,
  prefix = '',
  outerRoot: JsonSchema = input,
): FieldRow[] {
  const { schema, root } = enter(doc, input, outerRoot);
  const rows: FieldRow[] = [];
  const objects = alternatives(schema)
    .options.map((option) => resolveRef(doc, option, root))
    .filter((option) => option.properties);
  const names = [...new Set(objects.flatMap((object) => Object.keys(object.properties ?? {})))];
  // A property that is a constant in every member tells the members apart (the factors' `id`).
  const discriminator =
    objects.length > 1
      ? names.find((name) => objects.every((object) => object.properties?.[name]?.const !== undefined))
      : undefined;
  for (const name of names) {
    const members = objects.filter((object) => object.properties?.[name]);
    const variants = members.map((object) => object.properties![name]!);
    const path = prefix ? `${prefix}.${name}` : name;
    const first = resolveRef(doc, variants[0]!, root);
    const types = variants.map((variant) => describeType(doc, variant, root));
    const distinct = [...new Set(types)];
    const optional = members.some((object) => !object.required?.includes(name));
    const row: FieldRow = { path, type: distinct.join(' | '), description: first.description ?? '' };
    if (name === discriminator) {
      row.type = `one of ${distinct.join(', ')}`;
    } else if (discriminator && distinct.length > 1) {
      row.type = `depends on ${discriminator}`;
      row.cases = members.map((object, index) => ({
        when: JSON.stringify(object.properties![discriminator]!.const),
        type: types[index]!,
        description: resolveRef(doc, variants[index]!, root).description ?? '',
      }));
      row.description = `Depends on ${discriminator}:`;
    }
    if (optional) row.type += ' (optional)';
    rows.push(row);
    const resolved = resolveRef(doc, variants[0]!, root);
    for (const option of alternatives(resolved).options.map((inner) => resolveRef(doc, inner, root))) {
      if (option.properties) rows.push(...fieldRows(doc, option, path, root));
      else if (option.type === 'array' && option.items) rows.push(...fieldRows(doc, option.items, `${path}[]`, root));
    }
  }
  return rows;
}

/** The `data` schema of an operation's 200 response (the envelope's `data` property). */
export function dataSchema(doc: OpenApiDocument, operation: OpenApiOperation): JsonSchema | null {
  const envelope = operation.responses?.['200']?.content?.['application/json']?.schema;
  if (!envelope) return null;
  return resolveRef(doc, envelope).properties?.data ?? null;
}

/** `/api/v1/tags?url=…` from an endpoint path and example parameters. */
export function exampleUrl(path: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${path}?${query}` : path;
}
