/**
 * /llms.txt: tagdex in plain text for language models and the people who point them at it — the MCP endpoint,
 * its tools and the HTTP API, generated at build time from the endpoint table (functions/endpoints.ts).
 */
import type { APIRoute } from 'astro';
import { TOOLS, toolList } from '../../functions/mcp/tools.ts';
import { OPENAPI_PATH } from '../../functions/endpoints.ts';
import { REGIONS, REGION_NAMES } from '../lib/regions.ts';
import { apiUrl } from '../components/api-base.ts';
import { EXAMPLE_QUESTIONS, MCP_PATH, mcpJson } from './_lib/assistant-guide.ts';
import { RATE_LIMIT, RATE_LIMIT_PER_HOUR, REGION_COUNT } from './_lib/site-facts.ts';

export const GET: APIRoute = () => {
  // Same origin: the build does not know its host, so the address is given relative to the site's.
  const mcp = apiUrl(MCP_PATH).startsWith('/') ? `https://<this site>${MCP_PATH}` : apiUrl(MCP_PATH);
  const lines = [
    '# tagdex',
    '',
    '> Free YouTube tag data with no key and no sign-up: the tags of a video, video and channel records, the tags',
    `> trending and rising on YouTube’s most-popular charts in ${REGION_COUNT} countries, a tag’s 90-day history, and a`,
    `> score for a proposed title against what trends in a country. ${RATE_LIMIT.charAt(0).toUpperCase()}${RATE_LIMIT.slice(1)}.`,
    '',
    `Countries: ${REGIONS.map((region) => `${region} (${REGION_NAMES[region]})`).join(', ')}.`,
    'Trending data comes from daily snapshots of the charts; videos and channels are read live from the YouTube',
    'Data API. Data from YouTube: https://www.youtube.com/t/terms',
    '',
    '## MCP server (for AI assistants)',
    '',
    `- Endpoint: ${mcp} — Streamable HTTP, stateless, JSON responses, no authentication. Every tools/call counts`,
    '  as one request in the same hourly limit as the HTTP API; initialize, tools/list and ping are free.',
    `- .mcp.json: ${mcpJson(mcp).replace(/\s+/g, ' ')}`,
    '',
    '### Tools',
    '',
    ...toolList(RATE_LIMIT_PER_HOUR).tools.map((tool) => `- ${tool.name}: ${tool.description}`),
    '',
    '### Example questions',
    '',
    ...EXAMPLE_QUESTIONS.map((question) => `- ${question}`),
    '',
    '## HTTP API',
    '',
    `- [OpenAPI 3.1 document](${apiUrl(OPENAPI_PATH)}): every endpoint, parameter and response field.`,
    '- [API documentation](/api/): the same, for people, with runnable examples.',
    ...TOOLS.map((tool) => `- GET ${apiUrl(tool.endpoint.path)} (${tool.names.join(', ')}): ${tool.endpoint.summary}.`),
    '',
    'Every answer is JSON: {"ok": true, "data": …} or {"ok": false, "error": "…"}; CORS is open to any origin.',
    '',
  ];
  return new Response(lines.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
