/**
 * An answer made from prepared data that is already read is made in the task that asked for it
 * (functions/maybe-promise.ts): the Node pipeline hands back the answer itself, not a promise of it. Where the read
 * is a promise (as a first read of a file is), the answer is the same; where the read fails, either way, it is the 500
 * envelope.
 */
import { describe, expect, it } from 'vitest';
import { getRequest, inject, nodePipeline } from '../support/inject.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import type { Pipeline } from '../../functions/pipeline.ts';
import type { PlainAnswer, PreparedData } from '../../functions/runtime.ts';

const clock = () => Date.parse('2026-11-20T12:00:00Z');

/** Each path's target, and another query on the same path that routes it first. */
const TARGETS: [warm: string, target: string][] = [
  [
    '/api/v1/title-score?region=US&title=warm',
    '/api/v1/title-score?region=IN&title=%E0%A4%95%E0%A5%8D%E0%A4%B0%E0%A4%BF%E0%A4%95%E0%A5%87%E0%A4%9F%202026',
  ],
  ['/api/v1/trending-tags?region=US', '/api/v1/trending-tags?region=BR&days=7&limit=5'],
  ['/api/v1/rising-tags?region=US', '/api/v1/rising-tags?region=EG&days=7'],
  ['/api/v1/tag-history?region=US&tag=warm', '/api/v1/tag-history?region=NG&tag=afrobeats'],
  ['/api/v1/categories?region=US', '/api/v1/categories?region=PK'],
];

async function warmed(data: PreparedData): Promise<Pipeline> {
  const pipeline = await nodePipeline({}, { data, now: clock });
  for (const [warm] of TARGETS) expect((await inject(pipeline, 'GET', warm)).status).toBe(200);
  return pipeline;
}

function text(answer: PlainAnswer): string {
  return new TextDecoder().decode(answer.body ?? new Uint8Array());
}

/** The same prepared data, every read answered later. */
function later(data: PreparedData): PreparedData {
  return {
    ...data,
    trendingWindow: async () => null,
    titleBenchmark: async () => null,
    rising: async () => null,
    historyShard: async () => null,
  };
}

describe('answers from prepared data already read', () => {
  it('come back from the Node pipeline in the same task, the same as when every read is a promise', async () => {
    const now = await warmed(emptyPreparedData());
    const afterwards = await warmed(later(emptyPreparedData()));
    for (const [, target] of TARGETS) {
      const answer = now(getRequest(target));
      expect(answer instanceof Promise, target).toBe(false);
      const settled = answer as PlainAnswer;
      expect(settled.status, target).toBe(200);
      const awaited = await afterwards(getRequest(target));
      expect(text(settled), target).toBe(text(awaited));
      expect(settled.headers, target).toEqual(awaited.headers);
    }
  });

  it('answer a read that throws, or rejects, with the 500 envelope', async () => {
    const disk = () => new Error('EIO: the prepared file could not be read');
    const failing = (read: () => never | Promise<never>): PreparedData => ({
      ...emptyPreparedData(),
      trendingWindow: read,
      titleBenchmark: read,
      rising: read,
      historyShard: read,
    });
    const throwing = failing(() => {
      throw disk();
    });
    const rejecting = failing(() => Promise.reject(disk()));
    for (const data of [throwing, rejecting]) {
      const pipeline = await nodePipeline({}, { data, now: clock, errorLog: () => undefined });
      for (const [, target] of TARGETS.slice(0, 4)) {
        const answer = await inject(pipeline, 'GET', target);
        expect(answer.status, target).toBe(500);
        expect(answer.json().ok, target).toBe(false);
        expect(answer.text, target).not.toContain('EIO');
      }
    }
  });
});
