/**
 * The Worker's upload of the shared site build, counted as `wrangler deploy` counts it (ingest/worker-assets.ts):
 * within the free plan's 20,000 files, and exactly the built files less the compressed copies and metafiles.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { countUploadedAssets, FREE_PLAN_ASSET_FILES } from '../../ingest/worker-assets.ts';

const site = await sharedSite();

describe('the Worker upload of a built site', () => {
  it('is every built file but the .br/.gz copies and the metafiles, and within the free plan', async () => {
    const entries = await readdir(site.distDir, { recursive: true, withFileTypes: true });
    const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    const left = files.filter((name) => /\.(br|gz)$/.test(name) || ['_headers', '.assetsignore'].includes(name));
    expect(left).toContain('_headers');
    const uploaded = await countUploadedAssets(site.distDir);
    expect(uploaded).toBe(files.length - left.length);
    expect(uploaded).toBeLessThanOrEqual(FREE_PLAN_ASSET_FILES);
  });
});
