/**
 * `npm run ingest`: reads today's most-popular chart of each region and writes the dated snapshots.
 * Live with YOUTUBE_API_KEY, otherwise from the built-in sample upstream into `<data-dir>/sample`.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { REGIONS, parseRegion, type Region } from '../src/lib/regions.ts';
import { isIsoDate, utcDate } from '../src/lib/iso-date.ts';
import { CATEGORY_ID } from '../src/lib/categories.ts';
import { ConfigError, loadConfig } from '../functions/config.ts';
import { createUpstreamClient } from '../functions/upstream.ts';
import { DEFAULT_CONCURRENCY, runIngest } from './run-ingest.ts';

const USAGE = `Usage: npm run ingest -- [options]

Reads each region's most-popular chart, its category list and one chart per assignable category, and
writes <data-dir>/trending/<REGION>/<YYYY-MM-DD>.json. Prints the quota units spent (at most 129 a region:
charts, category list and the channel statistics breakouts need, ⌈channels ÷ 50⌉ calls).
With YOUTUBE_API_KEY set it reads the YouTube Data API (YOUTUBE_API_BASE); without it, the built-in
sample upstream, into <data-dir>/sample so sample and live data never mix.
After each region's write it deletes that region's snapshots dated before the SNAPSHOT_RETENTION_DAYS days
(default 90) that end on --date.

Options:
  --date YYYY-MM-DD     the snapshot's date (default: today in UTC); re-running a date replaces it
  --regions IN,US       regions to read (default: all of ${REGIONS.join(',')})
  --data-dir PATH       data folder (default: $DATA_DIR, else "data")
  --categories LIST     which category charts to read: "all" assignable ones (default), ids such as
                        10,20, or "none" (the overall chart only, no category list call)
  --concurrency N       regions read at once (default: ${DEFAULT_CONCURRENCY})
  --help                show this text

Exit status: 0 when every region was written whole; 1 when any region failed (nothing written for it) or
any category chart failed for a reason other than videoChartNotFound (the snapshot is still written with
the charts that succeeded; the failures are named on stderr); 2 for bad options.`;

/** The command line, checked: every problem is a sentence naming the option. */
export interface IngestArgs {
  help: boolean;
  date: string;
  regions: Region[];
  dataDir: string | null;
  /** 'all' assignable categories, these ids, or [] for none. */
  categories: 'all' | string[];
  concurrency: number;
}

/** A bad command line: the message names the option; the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses and validates the flags; `today` is the default date. */
export function parseIngestArgs(argv: readonly string[], today: string): IngestArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        date: { type: 'string' },
        regions: { type: 'string' },
        'data-dir': { type: 'string' },
        categories: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const date = values.date ?? today;
  if (!isIsoDate(date))
    throw new UsageError(`--date must be a calendar date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
  const regions =
    values.regions === undefined
      ? [...REGIONS]
      : parseList(values.regions, '--regions').map((code) => {
          const region = parseRegion(code);
          if (region === null) {
            throw new UsageError(
              `--regions: ${JSON.stringify(code)} is not a supported region; use any of ${REGIONS.join(', ')}`,
            );
          }
          return region;
        });
  const categories = parseCategories(values.categories);
  const concurrencyText = values.concurrency ?? String(DEFAULT_CONCURRENCY);
  const concurrency = /^[0-9]{1,2}$/.test(concurrencyText) ? Number(concurrencyText) : 0;
  if (concurrency < 1)
    throw new UsageError(`--concurrency must be a whole number from 1 to 99, got ${JSON.stringify(concurrencyText)}`);
  return {
    help: values.help === true,
    date,
    regions: [...new Set(regions)],
    dataDir: values['data-dir'] ?? null,
    categories,
    concurrency,
  };
}

function parseCategories(text: string | undefined): 'all' | string[] {
  const wanted = text?.trim().toLowerCase();
  if (wanted === undefined || wanted === 'all') return 'all';
  if (wanted === 'none') return [];
  const ids = parseList(text!, '--categories').map((id) => {
    if (!CATEGORY_ID.test(id)) {
      throw new UsageError(
        `--categories: ${JSON.stringify(id)} is not a videoCategoryId (a number such as 10); or give "all" or "none"`,
      );
    }
    return id;
  });
  return [...new Set(ids)];
}

function parseList(text: string, flag: string): string[] {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value`);
  return items;
}

/** Runs the ingest; resolves to the process exit status. */
export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let args: IngestArgs;
  let config;
  try {
    args = parseIngestArgs(argv, utcDate(Date.now()));
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      log(`ingest: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dataDir = args.dataDir ?? config.DATA_DIR;
  const common = {
    dataDir,
    date: args.date,
    regions: args.regions,
    categories: args.categories,
    concurrency: args.concurrency,
    retentionDays: config.SNAPSHOT_RETENTION_DAYS,
    log,
  };
  const result =
    config.YOUTUBE_API_KEY === null
      ? await runIngest({ ...common, sample: true })
      : await runIngest({
          ...common,
          client: createUpstreamClient(config),
        });
  if (result.source === 'sample')
    log('ingest: no YOUTUBE_API_KEY set, so this was SAMPLE data (not real trending charts).');
  if (result.failed.length > 0)
    log(`ingest: failed regions: ${result.failed.join(', ')} (their earlier snapshots are untouched)`);
  if (result.categoryFailures.length > 0) {
    log(
      `ingest: failed category charts (their regions' snapshots were written without them): ${result.categoryFailures.join('; ')}`,
    );
  }
  return result.failed.length > 0 || result.categoryFailures.length > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
