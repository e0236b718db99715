import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { z } from 'zod';
import { hoistUnionProperties } from '../../src/lib/json-schema-hoist.ts';
import { TitleScoreData } from '../../src/schemas/title-score.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });

type Schema = Record<string, any>;

const closed = (properties: Schema, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** The title score's factor union, as zod writes it before folding. */
const factorItems = (z.toJSONSchema(TitleScoreData, { io: 'output', target: 'draft-2020-12' }) as Schema).properties
  .factors.items as Schema;

/** Every id the union names, each with values of every JSON type, and the ways an object can be wrong. */
function factorInstances(): unknown[] {
  const ids = (factorItems.oneOf as Schema[]).map((member) => member.properties.id.const as string);
  const values = [0, 7, -1, 2.5, null, true, false, 'text', [], ['a', 'b'], [1], {}];
  const base = { label: 'L', share: 0.25, points: 3, max_points: 10, note: 'n' };
  const instances: unknown[] = [null, 'factor', [], {}];
  for (const id of [...ids, 'no_such_factor'])
    for (const value of values) {
      const whole = { id, value, ...base };
      instances.push(whole, { ...whole, extra: 1 }, { ...whole, share: 2 }, { ...whole, share: null });
      instances.push(
        { ...whole, points: 'x' },
        Object.fromEntries(Object.entries(whole).filter(([k]) => k !== 'note')),
      );
    }
  return instances;
}

describe('hoistUnionProperties', () => {
  it('says the title score factors’ shared fields once, accepting exactly what the union accepted', () => {
    const folded = hoistUnionProperties(factorItems);
    expect(JSON.stringify(folded).length).toBeLessThan(JSON.stringify(factorItems).length / 2);
    expect(folded.properties.label).toEqual(factorItems.oneOf[0].properties.label);
    expect(folded.oneOf).toHaveLength(factorItems.oneOf.length);
    for (const member of folded.oneOf) {
      expect(Object.keys(member.properties).sort()).toEqual(['id', 'value']);
      expect(member.required).toEqual(['id', 'value']);
    }

    const before = ajv.compile(factorItems);
    const after = ajv.compile(folded);
    const instances = factorInstances();
    const verdicts = instances.map((instance) => [before(instance), after(instance)]);
    expect(verdicts.filter(([was]) => was).length).toBeGreaterThan(20);
    expect(verdicts.filter(([was]) => !was).length).toBeGreaterThan(100);
    verdicts.forEach(([was, is], i) => expect(is, JSON.stringify(instances[i])).toBe(was));
  });

  it('keeps oneOf’s “exactly one”: an object two members accept is still refused', () => {
    const union = {
      oneOf: [
        closed({ kind: { type: 'string' }, n: { type: 'integer' } }),
        closed({ kind: { type: 'string' }, n: { type: 'number' } }),
      ],
    };
    const folded = hoistUnionProperties(union);
    expect(folded).toHaveProperty('properties.kind', { type: 'string' });
    const [before, after] = [ajv.compile(union), ajv.compile(folded)];
    for (const instance of [{ kind: 'a', n: 1 }, { kind: 'a', n: 1.5 }, { kind: 'a' }, { kind: 1, n: 1.5 }])
      expect(after(instance), JSON.stringify(instance)).toBe(before(instance));
    expect(after({ kind: 'a', n: 1 })).toBe(false);
  });

  it('leaves alone unions whose members differ in fields, in what they require, or say more', () => {
    const cases: Schema[] = [
      { anyOf: [closed({ a: { type: 'string' } }), closed({ b: { type: 'string' } })] },
      { anyOf: [closed({ a: { type: 'string' }, b: {} }), closed({ a: { type: 'string' }, b: {} }, ['a'])] },
      { oneOf: [{ ...closed({ a: { const: 1 } }), title: 'One' }, closed({ a: { const: 2 } })] },
      { oneOf: [closed({ a: { const: 1 } }), closed({ a: { const: 2 } })] },
      { anyOf: [closed({ a: { type: 'string' } }), { type: 'null' }] },
      { type: 'object', oneOf: [closed({ a: { type: 'string' } }), closed({ a: { type: 'string' } })] },
    ];
    for (const schema of cases) expect(hoistUnionProperties(schema)).toEqual(schema);
  });

  it('folds unions nested anywhere, and changes nothing it was given', () => {
    const union = {
      anyOf: [
        closed({ id: { const: 'a', description: 'Which.' }, v: { type: 'integer' }, s: { type: 'string' } }),
        closed({ id: { const: 'b', description: 'Which.' }, v: { type: 'boolean' }, s: { type: 'string' } }),
      ],
    };
    const schema = { type: 'object', properties: { list: { type: 'array', items: union } } };
    const copy = structuredClone(schema);
    const folded = hoistUnionProperties(schema);
    expect(schema).toEqual(copy);
    expect(folded.properties.list.items).toEqual({
      type: 'object',
      properties: { id: { description: 'Which.' }, v: {}, s: { type: 'string' } },
      required: ['id', 'v', 's'],
      additionalProperties: false,
      anyOf: [
        { properties: { id: { const: 'a' }, v: { type: 'integer' } }, required: ['id', 'v'] },
        { properties: { id: { const: 'b' }, v: { type: 'boolean' } }, required: ['id', 'v'] },
      ],
    });
  });
});
