/**
 * The Worker's `Env` is generated from wrangler.toml into worker-configuration.d.ts (`npm run types:worker`; CI
 * fails when it is stale). Merged in here: only what wrangler.toml cannot declare, because both are optional.
 */
interface Env {
  /** A secret (`wrangler secret put YOUTUBE_API_KEY`); without it the Worker runs on sample data. */
  YOUTUBE_API_KEY?: string;
  /** Where the API is published; its host is accepted by /mcp too. */
  PUBLIC_API_BASE?: string;
}
