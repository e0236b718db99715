/** Types for the part of autocannon 8's programmatic API the benchmarks use (the package ships none). */
declare module 'autocannon' {
  /** The raw request autocannon is about to send; `setupRequest` may change it. */
  export interface RawRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
  }

  export interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest | null;
  }

  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
    /** Requests per second across all connections. */
    overallRate?: number;
    /** Each connection closes and reopens after this many requests. */
    reconnectRate?: number;
    title?: string;
  }

  /** hdr-histogram-percentiles-obj, as autocannon reports it. */
  export interface Histogram {
    min: number;
    max: number;
    average: number;
    mean: number;
    stddev: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void;
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
