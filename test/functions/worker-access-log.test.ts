/**
 * The Worker's access log through its real composition (test/support/worker-inprocess.ts): the lines of several
 * requests leave together in one `console.log` (functions/worker/batched-log.ts), each line a whole JSON record,
 * once the request that began the batch has finished its `waitUntil`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLiveWorker, type LiveWorker } from '../helpers/live-worker.ts';

let live: LiveWorker;

beforeAll(async () => {
  live = await startLiveWorker(Date.parse('2026-11-20T12:00:00Z'), 100);
});
afterAll(async () => {
  await live?.close();
});

/** What the Worker wrote with console.log that is an access-log batch. */
const batches = () =>
  vi
    .mocked(console.log)
    .mock.calls.map((call) => String(call[0]))
    .filter((text) => text.startsWith('{"time"'));

describe("the Worker's access log", () => {
  it('writes the lines of three requests as one batch of three records, after the first request’s waitUntil', async () => {
    for (let i = 0; i < 3; i++) expect((await live.unknownName(`198.51.100.${i + 1}`)).status).toBe(404);
    expect(batches()).toEqual([]);
    await live.worker.settled();
    expect(batches()).toHaveLength(1);
    const records = batches()[0]!
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(3);
    for (const record of records) {
      expect(record).toMatchObject({ method: 'GET', path: '/api/v1/channel', status: 404, cache: 'miss' });
      expect(record.client).toMatch(/^[\w-]{12}$/);
    }
    expect(new Set(records.map((record) => record.client)).size).toBe(3);
  });
});
