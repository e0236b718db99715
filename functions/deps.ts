/** What every endpoint's handler is given: injected, so tests and every runtime can supply their own. */
import type { YouTubeService } from '../src/youtube/service.ts';
import type { UpstreamMeter } from '../src/youtube/client.ts';
import type { DataMode, PreparedData } from './runtime.ts';

export type { DataMode };

export interface ApiDeps {
  /** Cached access to videos and channels upstream. */
  youtube: YouTubeService;
  /** The build's pre-computed trending indexes and title benchmarks. */
  data: PreparedData;
  /** Counts this request's upstream calls and quota units for the access log; one per request. */
  meter: UpstreamMeter;
  /** Who is asking: the rate-limit key (address, or /56 for IPv6). Per-client rations (search) count against it. */
  client: string;
}
