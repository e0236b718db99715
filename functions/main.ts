/** `npm run serve`: reads the configuration once, wires the upstream, the data and the server, and listens. */
import { loadConfig, ConfigError, type Config } from './config.ts';
import { createTagdexServer } from './server.ts';
import { MemoryRateLimitStore } from './rate-limit.ts';
import { loadPreparedData } from './prepared-data.ts';
import { createYouTubeClient } from '../src/youtube/client.ts';
import { createYouTubeService } from '../src/youtube/service.ts';
import { createSampleUpstream } from '../src/fake-upstream/sample-upstream.ts';
import { createUpstreamPool } from './upstream-pool.ts';

/** The upstream the live endpoints read: YouTube with the key, or the built-in sample emulator without. */
export function createUpstream(config: Config) {
  if (config.mode === 'live') {
    return createYouTubeClient({
      apiKey: config.YOUTUBE_API_KEY!,
      baseUrl: config.YOUTUBE_API_BASE,
      // Kept-alive connections and undici's plain request, without fetch's Request/Response/stream objects per call.
      transport: createUpstreamPool(config.YOUTUBE_API_BASE).transport,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    });
  }
  const sample = createSampleUpstream();
  return createYouTubeClient({
    apiKey: 'sample-mode',
    baseUrl: 'https://sample.tagdex.invalid/youtube/v3',
    fetch: sample.fetch,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`tagdex: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const data = await loadPreparedData(config.BUILD_DIR);
  const { server, drain } = createTagdexServer({
    mode: config.mode,
    youtube: createYouTubeService({ client: createUpstream(config) }),
    data,
    distDir: config.DIST_DIR,
    rateLimit:
      config.RATE_LIMIT_PER_HOUR > 0 ? new MemoryRateLimitStore({ limit: config.RATE_LIMIT_PER_HOUR }) : null,
    trustProxy: config.TRUST_PROXY,
  });

  if (config.mode === 'sample') {
    process.stderr.write(
      'tagdex: SAMPLE MODE — no YOUTUBE_API_KEY is set, so the API and pages answer from built-in sample data (X-Tagdex-Data: sample). Set YOUTUBE_API_KEY for live data.\n',
    );
  }
  if (data.source !== config.mode) {
    process.stderr.write(
      `tagdex: warning: the build holds ${data.source} data but the server runs in ${config.mode} mode; run \`npm run build\` with the same environment.\n`,
    );
  }

  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    process.stderr.write(`tagdex: listening on http://${config.HOST}:${port}/ (${config.mode} mode)\n`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`tagdex: ${signal} received; finishing in-flight requests\n`);
    void drain().then(() => process.exit(0));
    // In-flight requests are bounded by the upstream timeout; do not wait forever on a stuck client.
    setTimeout(() => {
      server.closeAllConnections();
      process.exit(0);
    }, config.UPSTREAM_TIMEOUT_MS * 2 + 1000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main();
