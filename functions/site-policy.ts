/** Answers about the site rather than an endpoint, the same in every runtime: /healthz and CSV download names. */
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

/**
 * CSV downloads get a descriptive file name: tagdex-in-tags-7d-2026-11-25.csv, and for a category's files
 * tagdex-in-music-tags-7d-2026-11-25.csv (dated by that category's newest chart).
 */
export function csvDownloadHeaders(urlPath: string, manifest: BuildManifest): Record<string, string> | undefined {
  const match = /^\/trending\/([a-z]{2})\/(?:([a-z0-9]+(?:-[a-z0-9]+)*)\/)?((?:tags|hashtags|rising)-\d+d)\.csv$/.exec(urlPath);
  if (!match) return undefined;
  const [, code, slug, table] = match as unknown as [string, string, string | undefined, string];
  const built = manifest.regions[code.toUpperCase() as keyof BuildManifest['regions']];
  const date = (slug === undefined ? built?.latest_date : built?.categories?.find((c) => c.slug === slug)?.latest_date) ?? 'no-data';
  return { 'Content-Disposition': `attachment; filename="tagdex-${code}-${slug === undefined ? '' : `${slug}-`}${table}-${date}.csv"` };
}
