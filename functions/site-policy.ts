/**
 * Answers about the site rather than an endpoint, the same in every runtime: /healthz, CSV download names, and
 * which files in dist/ are the build's own.
 */
import type { BuildManifest } from '../src/schemas/build-output.ts';
import type { DataMode } from './deps.ts';

/** The `data` of `GET /healthz`: the mode, the newest snapshot date and what the build read per region. */
export function healthData(manifest: BuildManifest, mode: DataMode, uptimeSeconds: number) {
  const dates = Object.values(manifest.regions)
    .map((region) => region.latest_date)
    .filter((date): date is string => !!date)
    .sort();
  return {
    status: 'ok',
    mode,
    data_date: dates[dates.length - 1] ?? null,
    built_at: manifest.built_at,
    uptime_seconds: uptimeSeconds,
    regions: manifest.regions,
  };
}

/** CSV downloads get a descriptive file name: tagdex-in-tags-7d-2026-11-25.csv. */
export function csvDownloadHeaders(urlPath: string, manifest: BuildManifest): Record<string, string> | undefined {
  const match = /^\/trending\/([a-z]{2})\/((?:tags|hashtags|rising)-\d+d)\.csv$/.exec(urlPath);
  if (!match) return undefined;
  const region = match[1]!.toUpperCase() as keyof BuildManifest['regions'];
  const date = manifest.regions[region]?.latest_date ?? 'no-data';
  return { 'Content-Disposition': `attachment; filename="tagdex-${match[1]}-${match[2]}-${date}.csv"` };
}

/** dist/'s top-level files written for Workers Static Assets (ingest/worker-assets.ts), not for visitors. */
const WORKER_RULE_FILES = new Set(['_headers', '.assetsignore']);
/** The pre-compressed copies beside each file (ingest/precompress-cli.ts): sent as an encoding, never by name. */
const PRECOMPRESSED_NAME = /\.(?:br|gz)$/i;

/**
 * Whether a path names a file the build writes into dist/ for its own use, never to be served: the Worker's
 * prepared data (`_prepared/`), `_headers`, `.assetsignore`, and the `.br`/`.gz` copies asked for by name.
 * `urlPath` must be decoded and normalised (no `.` or `..` segments, no doubled slashes) — the path the file
 * lookup will use, so that no other spelling of the same file gets past.
 */
export function isBuildInternalPath(urlPath: string): boolean {
  const segments = urlPath.split('/').filter((segment) => segment !== '');
  const first = segments[0]?.toLowerCase();
  if (first === undefined) return false;
  if (first === '_prepared') return true;
  if (segments.length === 1 && WORKER_RULE_FILES.has(first)) return true;
  return PRECOMPRESSED_NAME.test(segments[segments.length - 1]!);
}
