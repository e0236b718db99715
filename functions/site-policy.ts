/**
 * Answers about the site rather than an endpoint, the same in every runtime: /healthz, CSV download names, and
 * which files in dist/ are the build's own.
 */
import type { BuildManifest } from '../src/schemas/build-output.ts';
import type { QuotaStats } from '../src/youtube/service.ts';
import type { DataMode } from './deps.ts';

/**
 * The `data` of `GET /healthz`: the mode, the newest snapshot date, what the build read per region, and today's use
 * of the upstream's two quota buckets tagdex draws from, each apart (`used_today` null where the store cannot tell).
 */
export function healthData(manifest: BuildManifest, mode: DataMode, uptimeSeconds: number, quota: QuotaStats) {
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
    quota: {
      main_units: { used_today: quota.mainUnits.usedToday, per_day: quota.mainUnits.perDay },
      search_calls: {
        used_today: quota.searchCalls.usedToday,
        per_day: quota.searchCalls.perDay,
        ration_per_day: quota.searchCalls.rationPerDay,
        ration_per_client: quota.searchCalls.rationPerClient,
        ration_used_today: quota.searchCalls.rationUsedToday,
      },
    },
  };
}

/** A CSV file of the site as its download name describes it. */
export interface CsvDownload {
  /** Lower-case region code, as in the path. */
  region: string;
  /** The category's slug for a category's file, null for the country's own. */
  category: string | null;
  /** `tags-7d`, `hashtags-30d`, `rising-1d`, … */
  table: string;
  /** The region's newest snapshot date (a category's files too: the data date of the build they belong to), or `no-data`. */
  date: string;
}

/** The CSV file at `urlPath`, or null when the path is not one of the site's CSV files. */
export function csvDownload(urlPath: string, manifest: BuildManifest): CsvDownload | null {
  const match =
    /^\/trending\/([a-z]{2})\/(?:([a-z0-9]+(?:-[a-z0-9]+)*)\/)?((?:tags|hashtags|rising|breakouts)-\d+d)\.csv$/.exec(
      urlPath,
    );
  if (!match) return null;
  const [, region, category, table] = match as unknown as [string, string, string | undefined, string];
  const date = manifest.regions[region.toUpperCase() as keyof BuildManifest['regions']]?.latest_date ?? 'no-data';
  return { region, category: category ?? null, table, date };
}

/** tagdex-in-tags-7d-2026-11-25.csv; a category's file: tagdex-in-music-tags-7d-2026-11-25.csv. */
export function csvDownloadName(file: CsvDownload): string {
  return `tagdex-${file.region}-${file.category === null ? '' : `${file.category}-`}${file.table}-${file.date}.csv`;
}

/** CSV downloads get a descriptive file name (csvDownloadName), dated by their region's newest snapshot. */
export function csvDownloadHeaders(urlPath: string, manifest: BuildManifest): Record<string, string> | undefined {
  const file = csvDownload(urlPath, manifest);
  return file === null ? undefined : { 'Content-Disposition': `attachment; filename="${csvDownloadName(file)}"` };
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
