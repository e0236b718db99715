/**
 * A JSON Schema made shorter without changing what it accepts: a union (`oneOf` or `anyOf`) of closed objects
 * with the same property names and the same `required` says what its members share once, beside the union, and
 * each member keeps only what sets it apart. The title score's factors, twelve variants of one object told apart
 * by `id` and `value`, repeated the five other fields' schemas twelve times: 18 KB of an MCP tools/list of 53 KB,
 * read by every client and sent into every model's context. `$ref` would say it more briefly, but not every MCP
 * client resolves references in a tool's schema.
 *
 * Why it is the same schema: a member is (the shared object keywords) ∧ (each property's own schema); the union
 * becomes (the shared object keywords ∧ the properties every member gives the same schema) ∧ one of (each member's
 * other properties), and a property whose schemas differ keeps, beside the union, only the keywords that are
 * independent constraints or annotations (`type`, `description`) and equal in every member.
 */

type Schema = Record<string, unknown>;

/** The keywords a member may carry to be folded: a closed object and its properties, nothing else. */
const MEMBER_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties']);
/** Keywords of a property's schema that may stand apart from the rest of it: each is checked (or read) alone. */
const SEPARABLE_KEYWORDS = ['type', 'description'] as const;

/** `schema` with every foldable union folded, depth first; the input is not changed. */
export function hoistUnionProperties<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(hoistUnionProperties) as T;
  if (!isSchema(schema)) return schema;
  const walked: Schema = {};
  for (const [key, value] of Object.entries(schema)) walked[key] = hoistUnionProperties(value);
  return (foldUnion(walked, 'oneOf') ?? foldUnion(walked, 'anyOf') ?? walked) as T;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The folded form of `schema`'s union under `keyword`, or undefined when its members are not alike enough. */
function foldUnion(schema: Schema, keyword: 'oneOf' | 'anyOf'): Schema | undefined {
  const members = schema[keyword];
  if (!Array.isArray(members) || members.length < 2 || !members.every(isClosedObject)) return undefined;
  if ([...MEMBER_KEYWORDS].some((key) => key in schema)) return undefined;
  const [first, ...rest] = members;
  const names = Object.keys(first!.properties);
  const required = requiredKey(first!);
  if (!rest.every((member) => sameNames(member, names) && requiredKey(member) === required)) return undefined;
  const properties: Schema = {};
  const apart = new Set<string>();
  for (const name of names) {
    const schemas = members.map((member) => member.properties[name]);
    const texts = schemas.map(canonical);
    if (texts.every((text) => text === texts[0])) properties[name] = schemas[0];
    else {
      apart.add(name);
      properties[name] = sharedKeywords(schemas);
    }
  }
  if (apart.size === names.length) return undefined;
  const { [keyword]: _folded, ...others } = schema;
  return {
    ...others,
    type: 'object',
    properties,
    required: first!.required,
    additionalProperties: false,
    [keyword]: members.map((member) => ownPart(member, apart, properties)),
  };
}

interface ClosedObject {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
}

function isClosedObject(value: unknown): value is ClosedObject {
  return (
    isSchema(value) &&
    Object.keys(value).every((key) => MEMBER_KEYWORDS.has(key)) &&
    value.type === 'object' &&
    value.additionalProperties === false &&
    isSchema(value.properties) &&
    Array.isArray(value.required)
  );
}

/** A member's required names in one comparable string. */
function requiredKey(member: ClosedObject): string {
  return [...member.required].sort().join('\n');
}

function sameNames(member: ClosedObject, names: string[]): boolean {
  const own = Object.keys(member.properties);
  return own.length === names.length && names.every((name) => name in member.properties);
}

/** The separable keywords every one of `schemas` has, with the same value. */
function sharedKeywords(schemas: unknown[]): Schema {
  const shared: Schema = {};
  for (const keyword of SEPARABLE_KEYWORDS) {
    const values = schemas.map((each) => (isSchema(each) ? canonical(each[keyword]) : undefined));
    if (values[0] !== undefined && values.every((value) => value === values[0]))
      shared[keyword] = (schemas[0] as Schema)[keyword];
  }
  return shared;
}

/**
 * A member reduced to the properties that set it apart, without the keywords said beside the union. It still
 * requires those of them that are required (already required beside it): a linter that reads each member alone, as
 * Redocly's does, can then see that the members exclude each other.
 */
function ownPart(member: ClosedObject, apart: ReadonlySet<string>, hoisted: Schema): Schema {
  const properties: Schema = {};
  for (const name of apart) {
    const own = member.properties[name];
    const said = hoisted[name] as Schema;
    properties[name] = isSchema(own) ? Object.fromEntries(Object.entries(own).filter(([key]) => !(key in said))) : own;
  }
  const required = member.required.filter((name) => apart.has(name));
  return required.length > 0 ? { properties, required } : { properties };
}

/** JSON text with object keys sorted, so two schemas written in different key orders compare equal. */
function canonical(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return JSON.stringify(value, (_key, inner: unknown) =>
    isSchema(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
