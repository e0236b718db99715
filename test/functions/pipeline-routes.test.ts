/**
 * The route stage's cache of the router's verdicts: once the router has sent a GET to an endpoint's own path, any
 * query on that path goes straight there. Every target below must get the same answer whether the router routes
 * it (a fresh pipeline) or the cache does (a pipeline that has already answered another query on the same path).
 */
import { describe, expect, it } from 'vitest';
import { inject, nodePipeline, type Injected } from '../support/inject.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import type { Pipeline } from '../../functions/pipeline.ts';

const clock = () => Date.parse('2026-11-20T12:00:00Z');
const fresh = () => nodePipeline({}, { data: emptyPreparedData(), now: clock });

/** What decides an answer: its status, body and headers (Age aside, which only counts seconds). */
function comparable(answer: Injected) {
  const { age: _age, ...headers } = answer.headers;
  return { status: answer.status, headers, text: answer.text };
}

const TARGETS: [method: string, target: string][] = [
  ['GET', '/api/v1/title-score?region=IN&title=IPL%202026%20Final'],
  ['GET', '/api/v1/title-score?title=%E0%A4%95%E0%A5%8D%E0%A4%B0%E0%A4%BF%E0%A4%95%E0%A5%87%E0%A4%9F&region=in'],
  ['GET', '/api/v1/title-score?junk=1&title=a+b&region=US#fragment'],
  ['GET', '/api/v1/title-score?title=%C0%AF&region=US'],
  ['GET', '/api/v1/title-score?title=x&title=y&region=US'],
  ['GET', '/api/v1/title-score'],
  ['GET', '/api/v1/title-score/?title=trailing&region=US'],
  ['GET', '/api/v1/./title-score?title=dot&region=US'],
  ['GET', '/api/v1/title%2Dscore?title=encoded&region=US'],
  ['GET', '//api/v1/title-score?title=double&region=US'],
  ['HEAD', '/api/v1/title-score?title=head&region=US'],
  ['POST', '/api/v1/title-score?title=post&region=US'],
  ['GET', '/api/v1/trending-tags?region=BR&days=7'],
  ['GET', '/api/v1/trending-tags?region=BR&days=0'],
];

describe('the route cache', () => {
  it('answers every target as the router does, after another query on the same path', async () => {
    const warmed = async (): Promise<Pipeline> => {
      const pipeline = await fresh();
      for (const path of ['/api/v1/title-score', '/api/v1/trending-tags']) {
        expect((await inject(pipeline, 'GET', `${path}?region=NG&title=first&days=1`)).status).toBe(200);
      }
      return pipeline;
    };
    const cached = await warmed();
    for (const [method, target] of TARGETS) {
      const byRouter = await inject(await fresh(), method, target);
      const byCache = await inject(cached, method, target);
      expect(comparable(byCache), `${method} ${target}`).toEqual(comparable(byRouter));
    }
  });

  it('keeps the refusals of the router: a method other than GET, a path with no endpoint', async () => {
    const pipeline = await fresh();
    await inject(pipeline, 'GET', '/api/v1/title-score?region=US&title=warm');
    expect((await inject(pipeline, 'POST', '/api/v1/title-score?region=US&title=x')).status).toBe(422);
    expect((await inject(pipeline, 'GET', '/api/v1/title%2Dscore?region=US&title=x')).status).toBe(404);
    expect((await inject(pipeline, 'GET', '/api/v1/title-score?region=US&title=x')).status).toBe(200);
  });
});
