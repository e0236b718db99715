/** A real YouTube client whose fetch is an in-process emulator: the upstream for ingest-then-serve tests. */
import { createUpstreamEmulator } from '../support/emulator.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';

/** An empty emulator (fill it with `setDataset`) that accepts only `apiKey`, and a client wired to it. */
export function emulatedClient(apiKey: string) {
  const upstream = createUpstreamEmulator({ videos: [], channels: [], charts: {} }, { validKeys: [apiKey] });
  const client = createYouTubeClient({
    apiKey,
    baseUrl: 'https://youtube.e2e.invalid/youtube/v3',
    fetch: upstream.fetch.bind(upstream),
    retryBaseDelayMs: 1,
  });
  return { upstream, client };
}
