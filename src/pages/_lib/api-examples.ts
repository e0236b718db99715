/**
 * The parameters of each endpoint's runnable example on /api/. A sample-data site runs its examples against
 * ids that exist in the built-in sample dataset; a live site uses the OpenAPI document's real-world examples.
 */
import { SAMPLE_EXAMPLES } from '../../fake-upstream/sample-dataset.ts';
import type { OpenApiDocument } from './openapi-view.ts';
import type { DataMode } from '../../lib/data-mode.ts';

/** Sample-mode parameters by endpoint path; endpoints not listed keep the document's example. */
const SAMPLE_PARAMS: Record<string, Record<string, string>> = {
  '/api/v1/tags': { url: `https://www.youtube.com/watch?v=${SAMPLE_EXAMPLES.videoId}` },
  '/api/v1/video': { url: `https://youtu.be/${SAMPLE_EXAMPLES.videoId}` },
  '/api/v1/channel': { url: SAMPLE_EXAMPLES.handle },
};

/** Path → example query parameters, for a site built from `source` data. */
export function apiExamples(doc: OpenApiDocument, source: DataMode): Record<string, Record<string, string>> {
  const examples: Record<string, Record<string, string>> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const params: Record<string, string> = {};
    for (const parameter of item.get?.parameters ?? []) {
      if (parameter.in === 'query' && parameter.example !== undefined)
        params[parameter.name] =
          typeof parameter.example === 'string' ? parameter.example : JSON.stringify(parameter.example);
    }
    examples[path] = source === 'sample' ? { ...params, ...SAMPLE_PARAMS[path] } : params;
  }
  return examples;
}
