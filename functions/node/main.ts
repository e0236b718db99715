/** `npm run serve`: reads the configuration once, wires the upstream, the data and the server, and listens. */
import { loadConfig, ConfigError, SAMPLE_MODE_NOTICE, type Config } from '../config.ts';
import { createTagdexServer } from './server.ts';
import { MemoryRateLimitStore } from './memory-rate-limit.ts';
import { loadPreparedData } from './prepared-data.ts';
import { createYouTubeService } from '../../src/youtube/service.ts';
import { createUpstreamClient } from '../upstream.ts';

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
    youtube: createYouTubeService({ client: createUpstreamClient(config, await liveTransport(config)) }),
    data,
    distDir: config.DIST_DIR,
    rateLimit:
      config.RATE_LIMIT_PER_HOUR > 0 ? new MemoryRateLimitStore({ limit: config.RATE_LIMIT_PER_HOUR }) : null,
    trustProxy: config.TRUST_PROXY,
    trustProxyHeader: config.TRUST_PROXY_HEADER,
    maxConnections: config.MAX_CONNECTIONS,
    publicApiBase: config.PUBLIC_API_BASE,
  });

  if (config.mode === 'sample') {
    process.stderr.write(SAMPLE_MODE_NOTICE);
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

/**
 * Live: kept-alive connections and undici's plain request, without fetch's Request/Response/stream objects per
 * call. Imported only in live mode: undici's module graph alone is ~30 MB of a sample server's memory.
 */
async function liveTransport(config: Config) {
  if (config.mode !== 'live') return undefined;
  const { createUpstreamPool } = await import('./upstream-pool.ts');
  return { transport: createUpstreamPool(config.YOUTUBE_API_BASE).transport };
}

await main();
