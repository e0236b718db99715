/**
 * Upstream faults through the fake upstream on loopback: every fault × every live lookup (video, tags, channel by
 * handle, channel by video link) gives a 502 that says what happened, within the documented time and retries,
 * leaves the next request unharmed, and never shows the API key.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CANARY_KEY, startTestServer, type TestServer } from '../helpers/server.ts';
import { fixtureDataset, HINDI_VIDEO_ID, NON_LATIN_HANDLE_CHANNEL } from '../fixtures/upstream-dataset.ts';
import type { Fault } from '../support/emulator.ts';

/**
 * The client's per-attempt time limit in these tests (the harness retries after 10–20 ms): long enough for what a
 * loaded machine must do within one attempt, a normal answer (with 300 ms, a busy machine timed out first and the
 * retry's good answer came back as a 200).
 */
const TIMEOUT_MS = 900;
/**
 * For the huge body: reading its first 5 MB through the fake upstream took 330 ms on an idle machine as the file's
 * first case. In one loaded CI run this case got a 200: a second upstream call was made, and with the cap refused
 * as not retryable, the likely cause is the 900 ms limit passing first. The refusal never waits on the limit, so a
 * longer one changes nothing this case checks; its wall time is still held to WALL_TIME_BOUND_MS, as every case's.
 */
const HUGE_BODY_TIMEOUT_MS = 5000;

const MAX_RETRY_DELAY_MS = 2 * 10;
/**
 * Documented worst case: two attempts that each run out the time limit, the wait between them, and slack for a
 * loaded 2-core CI machine (1,459 ms was seen there with 500 ms of slack). A missing timeout still fails: the
 * hanging upstream never answers, so the request would outlive this bound by far.
 */
const WALL_TIME_BOUND_MS = 2 * TIMEOUT_MS + MAX_RETRY_DELAY_MS + 1500;

interface Target {
  name: string;
  path: string;
  /** The upstream resource the fault is injected into. */
  faultOn: 'videos' | 'channels';
  /** Good upstream calls made before the faulted one. */
  callsBefore: number;
}

const videoLink = encodeURIComponent(`https://www.youtube.com/watch?v=${HINDI_VIDEO_ID}&t=42s`);
const TARGETS: Target[] = [
  {
    name: 'video',
    path: `/api/v1/video?url=${encodeURIComponent(`https://youtu.be/${HINDI_VIDEO_ID}`)}`,
    faultOn: 'videos',
    callsBefore: 0,
  },
  { name: 'tags', path: `/api/v1/tags?url=${HINDI_VIDEO_ID}`, faultOn: 'videos', callsBefore: 0 },
  {
    name: 'channel by handle',
    path: `/api/v1/channel?url=${encodeURIComponent(NON_LATIN_HANDLE_CHANNEL.handle)}`,
    faultOn: 'channels',
    callsBefore: 0,
  },
  {
    name: 'channel by video link, the video lookup failing',
    path: `/api/v1/channel?url=${videoLink}`,
    faultOn: 'videos',
    callsBefore: 0,
  },
  {
    name: 'channel by video link, the channel lookup failing',
    path: `/api/v1/channel?url=${videoLink}`,
    faultOn: 'channels',
    callsBefore: 1,
  },
];

interface FaultCase {
  name: string;
  fault: Fault;
  /** Upstream attempts the client documents for this failure: one retry for 5xx, network and timeout, none otherwise. */
  attempts: 1 | 2;
  /** What the message must say, in plain words. */
  says: RegExp;
  /** The client's per-attempt limit, if not TIMEOUT_MS. */
  timeoutMs?: number;
}

// Two tries each ran out the limit: the message says both, not one (issue 19).
const TIMED_OUT = new RegExp(`did not answer in 2 tries of ${TIMEOUT_MS} ms\\.`);
const UNREADABLE = /sent a response that could not be read/;
const FAULTS: FaultCase[] = [
  { name: 'a timeout (no answer at all)', fault: { kind: 'hang' }, attempts: 2, says: TIMED_OUT },
  { name: 'a slow drip of the body', fault: { kind: 'slowDrip', chunkDelayMs: 50 }, attempts: 2, says: TIMED_OUT },
  { name: 'a connection reset', fault: { kind: 'reset' }, attempts: 2, says: /Could not connect .*connection failed/ },
  { name: '500', fault: { kind: 'status', status: 500 }, attempts: 2, says: /failed with a server error \(HTTP 500\)/ },
  { name: '503', fault: { kind: 'status', status: 503 }, attempts: 2, says: /failed with a server error \(HTTP 503\)/ },
  {
    name: '403 quotaExceeded',
    fault: { kind: 'quotaExceeded' },
    attempts: 1,
    says: /quota for today is used up.*midnight Pacific/,
  },
  { name: '400 keyInvalid', fault: { kind: 'keyInvalid' }, attempts: 1, says: /rejected the server's API key/ },
  { name: '400 API_KEY_INVALID', fault: { kind: 'apiKeyInvalid' }, attempts: 1, says: /rejected the server's API key/ },
  {
    name: '403 accessNotConfigured',
    fault: { kind: 'accessNotConfigured' },
    attempts: 1,
    says: /not enabled for the server's API key/,
  },
  { name: '200 with malformed JSON', fault: { kind: 'malformedJson' }, attempts: 1, says: UNREADABLE },
  { name: '200 with a truncated body', fault: { kind: 'truncated' }, attempts: 1, says: UNREADABLE },
  // Content-Length promised more than arrived before the connection closed: unreadable, and worth the retry.
  {
    name: '200 cut off mid-body',
    fault: { kind: 'cutOff' },
    attempts: 2,
    says: /sent a response that could not be read \(the connection closed before the whole body arrived\)/,
  },
  {
    name: '200 without snippet',
    fault: { kind: 'wrongShape', variant: 'missingSnippet' },
    attempts: 1,
    says: UNREADABLE,
  },
  {
    name: '200 with counts as numbers',
    fault: { kind: 'wrongShape', variant: 'numericCounts' },
    attempts: 1,
    says: UNREADABLE,
  },
  {
    name: '200 with a 20 MB body',
    fault: { kind: 'hugeBody', bytes: 20 * 1024 * 1024 },
    attempts: 1,
    says: /larger than 5 MB, which was refused/,
    timeoutMs: HUGE_BODY_TIMEOUT_MS,
  },
];

/** Wall times per fault, for the summary printed at the end. */
const wallTimes = new Map<string, number[]>();
afterAll(() => {
  const lines = [...wallTimes].map(
    ([fault, ms]) => `${fault}: ${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} ms`,
  );
  console.info(`upstream fault wall times (bound ${WALL_TIME_BOUND_MS} ms):\n  ${lines.join('\n  ')}`);
});

/** No trace of the key anywhere a client or an operator can read. */
function expectNoKey(server: TestServer, responses: { headers: Headers; body: string }[]): void {
  for (const { headers, body } of responses) {
    expect(body).not.toContain(CANARY_KEY);
    headers.forEach((value, name) => expect(`${name}: ${value}`).not.toContain(CANARY_KEY));
  }
  for (const line of [...server.accessLog, ...server.errorLog]) expect(line).not.toContain(CANARY_KEY);
}

describe.each(TARGETS)('$name', (target) => {
  it.each(FAULTS)(
    '$name → 502 saying so, in time, with the documented retries; the next request succeeds',
    async ({ name, fault, attempts, says, timeoutMs = TIMEOUT_MS }) => {
      // A fresh server per case: no cache, no memo, no leftover fault can carry over from another case.
      const server = await startTestServer({ dataset: fixtureDataset, timeoutMs });
      try {
        server.upstream.injectFault(fault, {
          times: attempts,
          match: (url) => url.pathname.endsWith(`/${target.faultOn}`),
        });

        const started = performance.now();
        const failed = await server.get(target.path);
        const failedBody = await failed.text();
        const wallMs = performance.now() - started;
        wallTimes.set(name, [...(wallTimes.get(name) ?? []), wallMs]);

        expect(failed.status, failedBody).toBe(502);
        const envelope = JSON.parse(failedBody) as { ok: boolean; error: string };
        expect(envelope.ok).toBe(false);
        expect(envelope.error).toMatch(says);
        // Nothing of the upstream's own text (Google's messages hold console URLs) or of its address.
        expect(envelope.error).not.toMatch(/https?:|googleapis|127\.0\.0\.1|console\.developers|youtube\/v3/);
        expect(failed.headers.get('cache-control')).toBe('no-store');
        expect(failed.headers.get('access-control-allow-origin')).toBe('*');
        expect(wallMs).toBeLessThanOrEqual(WALL_TIME_BOUND_MS);

        const faulted = server.upstream.calls.filter((call) => call.resource === target.faultOn);
        expect(faulted).toHaveLength(attempts);
        expect(server.upstream.calls).toHaveLength(target.callsBefore + attempts);
        // The access log counts the same upstream calls, and the failure reached the error log.
        const logged = JSON.parse(server.accessLog.at(-1)!) as { status: number; upstream_calls: number };
        expect(logged).toMatchObject({ status: 502, upstream_calls: target.callsBefore + attempts });
        expect(server.errorLog.length).toBeGreaterThan(0);

        // The fault is spent: the same request now succeeds.
        const next = await server.get(target.path);
        const nextBody = await next.text();
        expect(next.status, nextBody).toBe(200);
        expect(JSON.parse(nextBody)).toMatchObject({ ok: true, data: expect.any(Object) });

        expectNoKey(server, [
          { headers: failed.headers, body: failedBody },
          { headers: next.headers, body: nextBody },
        ]);
      } finally {
        await server.close();
      }
    },
  );
});

describe('a fault that outlasts the retry', () => {
  it('fails each request on its own, never caching the failure, and recovers as soon as the upstream does', async () => {
    const server = await startTestServer({ dataset: fixtureDataset, timeoutMs: TIMEOUT_MS });
    try {
      server.upstream.injectFault({ kind: 'status', status: 503 }, { times: 6 });
      const path = `/api/v1/video?url=${HINDI_VIDEO_ID}`;
      for (let i = 0; i < 3; i += 1) expect((await server.get(path)).status).toBe(502);
      // Three requests, two attempts each: each 502 went upstream again rather than being served from a cache.
      expect(server.upstream.calls).toHaveLength(6);
      expect((await server.get(path)).status).toBe(200);
      expect(server.upstream.calls).toHaveLength(7);
      expect((await server.get(path)).status).toBe(200);
      expect(server.upstream.calls).toHaveLength(7);
    } finally {
      await server.close();
    }
  });
});
