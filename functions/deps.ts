/** What every API handler is given: injected, so tests and an edge runtime can supply their own. */
import type { YouTubeService } from '../src/youtube/service.ts';
import type { UpstreamMeter } from '../src/youtube/client.ts';
import type { Clock, PreparedData } from './runtime.ts';

export type DataMode = 'sample' | 'live';

export interface ApiDeps {
  /** Cached, single-flight access to videos and channels upstream. */
  youtube: YouTubeService;
  /** The build's pre-computed trending indexes and title benchmarks. */
  data: PreparedData;
  mode: DataMode;
  now: Clock;
  /** Counts this request's upstream calls and quota units for the access log; one per request. */
  meter: UpstreamMeter;
  /** Who is asking: the rate-limit key (address, or /56 for IPv6). Per-client rations (search) count against it. */
  client: string;
  /** Receives failures the client sees as 5xx, for the log; never echoed to the client. */
  reportError: (error: unknown) => void;
}
