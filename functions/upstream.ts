/**
 * The composition root every runtime shares (the Node server, the Worker and the ingest): the YouTube client
 * the configuration asks for — the real API with the key, or the in-process sample upstream without one. (The
 * Worker in sample mode answers from the sample answers its build prepared instead: functions/worker/assets-data.ts.)
 */
import {
  createYouTubeClient,
  type UpstreamTransport,
  type YouTubeClient,
  type YouTubeClientOptions,
} from '../src/youtube/client.ts';
import type { SampleUpstream } from '../src/fake-upstream/sample-upstream.ts';
import type { Config } from './config.ts';

/** Any key works against the in-process sample upstream; it never leaves the process. */
const SAMPLE_API_KEY = 'tagdex-sample';
const SAMPLE_BASE_URL = 'https://sample.tagdex.invalid/youtube/v3';

export type UpstreamConfig = Pick<Config, 'mode' | 'YOUTUBE_API_KEY' | 'YOUTUBE_API_BASE' | 'UPSTREAM_TIMEOUT_MS'>;

/**
 * How live requests leave the runtime: its `fetch` (workerd's, or Node's for the ingest), or a leaner transport
 * (the Node server's kept-alive undici pool, functions/node/upstream-pool.ts).
 */
export type UpstreamSend = { fetch: typeof globalThis.fetch } | { transport: UpstreamTransport };

/** Client settings that are not configuration: the retry's wait, for tests that fail fast. */
export type UpstreamTuning = Pick<YouTubeClientOptions, 'retryBaseDelayMs'>;

/** The upstream client for `config`: live over `send`, or the in-process sample upstream without a key. */
export function createUpstreamClient(
  config: UpstreamConfig,
  send: UpstreamSend = { fetch: globalThis.fetch },
  tuning: UpstreamTuning = {},
): YouTubeClient {
  if (config.mode === 'live' && config.YOUTUBE_API_KEY) {
    return createYouTubeClient({
      apiKey: config.YOUTUBE_API_KEY,
      baseUrl: config.YOUTUBE_API_BASE,
      ...send,
      ...tuning,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    });
  }
  return createSampleClient(undefined, config.UPSTREAM_TIMEOUT_MS);
}

/** A client over the sample upstream: of `date`'s dataset, or following the UTC calendar without one. */
export function createSampleClient(date?: string, timeoutMs?: number): YouTubeClient {
  return createYouTubeClient({ apiKey: SAMPLE_API_KEY, baseUrl: SAMPLE_BASE_URL, fetch: sampleFetch(date), timeoutMs });
}

/**
 * The sample upstream's `fetch`, its module (the sample dataset and the answer writer) loaded by the first call:
 * a live server that never asks it does not hold them. The upstream builds nothing before its first request anyway.
 */
function sampleFetch(date: string | undefined): typeof fetch {
  let upstream: SampleUpstream | undefined;
  return async (input, init) => {
    if (!upstream) {
      const { createSampleUpstream } = await import('../src/fake-upstream/sample-upstream.ts');
      upstream ??= createSampleUpstream(date === undefined ? {} : { date });
    }
    return upstream.fetch(input, init);
  };
}
