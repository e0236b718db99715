/**
 * `npm run snapshots:pull` / `npm run snapshots:push`: the daily workflow's snapshot store. Pull before the
 * ingest, push after it; see snapshot-sync.ts for what each does and r2-object-store.ts for the store.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { isIsoDate, utcDate } from '../src/lib/iso-date.ts';
import { ConfigError, loadConfig } from '../functions/config.ts';
import { createSnapshotStore, snapshotRoot } from './snapshot-store.ts';
import { pullSnapshots, pushSnapshots } from './snapshot-sync.ts';
import { createWranglerR2Store } from './r2-object-store.ts';
import { createLocalR2Store } from './r2-local-store.ts';
import { UsageError } from './cli.ts';

const USAGE = `Usage: npm run snapshots:pull -- [options]
       npm run snapshots:push -- [options]

pull: writes the stored snapshots of the SNAPSHOT_RETENTION_DAYS days (default 90) that end on --date into
      <data-dir>/trending/ (files already there are kept). Run it before the ingest.
push: uploads the dates of that window that are new or changed, then deletes every stored date before it.
      Run it after the ingest.
The store is the R2 bucket SNAPSHOT_BUCKET of the account in CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID,
through wrangler; one object per date and a manifest.json naming the dates, so the bucket is never listed.

Options:
  --date YYYY-MM-DD     the date being ingested (default: today in UTC)
  --data-dir PATH       data folder (default: $DATA_DIR, else "data"); only live snapshots are synced
  --bucket NAME         the R2 bucket (default: $SNAPSHOT_BUCKET)
  --local-store DIR     wrangler's local R2 storage in DIR (what --local --persist-to DIR reads) instead of the
                        account: offline, for tests and trying it out
  --help                show this text

Exit status: 0 when done, 1 when the store failed (message on stderr), 2 for bad options or configuration.`;

export interface SyncArgs {
  action: 'pull' | 'push';
  help: boolean;
  date: string;
  dataDir: string | null;
  bucket: string | null;
  localStore: string | null;
}

/** Parses and validates the action and flags; `today` is the default date. */
export function parseSyncArgs(argv: readonly string[], today: string): SyncArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        date: { type: 'string' },
        'data-dir': { type: 'string' },
        bucket: { type: 'string' },
        'local-store': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  const [action, ...rest] = positionals;
  if (!help && (positionals.length === 0 || rest.length > 0 || (action !== 'pull' && action !== 'push'))) {
    throw new UsageError(`expected one action, pull or push; got ${JSON.stringify(positionals.join(' '))}`);
  }
  const date = values.date ?? today;
  if (!isIsoDate(date))
    throw new UsageError(`--date must be a calendar date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
  return {
    action: action === 'push' ? 'push' : 'pull',
    help,
    date,
    dataDir: values['data-dir'] ?? null,
    bucket: values.bucket ?? null,
    localStore: values['local-store'] ?? null,
  };
}

/** Runs pull or push; resolves to the process exit status. */
export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let args: SyncArgs;
  let config;
  try {
    args = parseSyncArgs(argv, utcDate(Date.now()));
    // --bucket goes through the same check as SNAPSHOT_BUCKET.
    config = loadConfig(args.bucket === null ? env : { ...env, SNAPSHOT_BUCKET: args.bucket });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      log(`snapshots: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (config.SNAPSHOT_BUCKET === undefined) {
    log(`snapshots: no bucket: set SNAPSHOT_BUCKET or pass --bucket\n\n${USAGE}`);
    return 2;
  }
  const localStore =
    args.localStore === null
      ? null
      : createLocalR2Store({ bucket: config.SNAPSHOT_BUCKET, persistTo: args.localStore });
  const opts = {
    remote: localStore ?? createWranglerR2Store({ bucket: config.SNAPSHOT_BUCKET }),
    local: createSnapshotStore(snapshotRoot(args.dataDir ?? config.DATA_DIR, 'live')),
    date: args.date,
    retentionDays: config.SNAPSHOT_RETENTION_DAYS,
    log,
  };
  try {
    if (args.action === 'pull') await pullSnapshots(opts);
    else await pushSnapshots(opts);
  } catch (error) {
    log(`snapshots ${args.action}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await localStore?.close();
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
