/** `npm run serve`: reads the configuration once, composes the Node app (app.ts) and listens. */
import { loadConfig, ConfigError, SAMPLE_MODE_NOTICE, type Config } from '../config.ts';
import { createNodeApp } from './app.ts';
import { upstreamBudgetMs } from '../../src/youtube/client.ts';

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

  const app = await createNodeApp(config);
  if (config.mode === 'sample') process.stderr.write(SAMPLE_MODE_NOTICE);
  if (app.data.source !== config.mode) {
    process.stderr.write(
      `tagdex: warning: the build holds ${app.data.source} data but the server runs in ${config.mode} mode; run \`npm run build\` with the same environment.\n`,
    );
  }

  const { server } = app;
  // The accept queue as deep as the connection cap (the kernel bounds it by somaxconn): a burst of connections
  // up to the cap waits to be accepted instead of being reset by the kernel.
  server.listen({ port: config.PORT, host: config.HOST, backlog: config.MAX_CONNECTIONS }, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    process.stderr.write(`tagdex: listening on http://${config.HOST}:${port}/ (${config.mode} mode)\n`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`tagdex: ${signal} received; finishing in-flight requests\n`);
    void app.drain().then(() => process.exit(0));
    // In-flight requests are bounded by the upstream budget (both tries and the wait); then a second to write answers.
    setTimeout(
      () => {
        server.closeAllConnections();
        app.flushLogs();
        process.exit(0);
      },
      upstreamBudgetMs(config.UPSTREAM_TIMEOUT_MS) + 1000,
    ).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// No top-level await: the production bundle is CommonJS (ingest/server-bundle.ts), which has none.
main().catch((error: unknown) => {
  process.stderr.write(`tagdex: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
