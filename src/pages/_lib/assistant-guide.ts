/**
 * What the site tells people and assistants about using tagdex from an AI assistant: the MCP endpoint's path,
 * a `.mcp.json` entry, connector steps and example questions. One home for the /api/ page and /llms.txt.
 */
import { MCP_PATH } from '../../../functions/mcp/mcp-path.ts';

export { MCP_PATH };

/** A `.mcp.json` (Claude Code, Cursor and others) that adds tagdex at `url`. */
export function mcpJson(url: string): string {
  return JSON.stringify({ mcpServers: { tagdex: { type: 'http', url } } }, null, 2);
}

/** How to add the endpoint as a custom connector, per assistant. */
export const CONNECTOR_STEPS: readonly { app: string; steps: string }[] = [
  {
    app: 'Claude',
    steps: 'Settings → Connectors → Add custom connector; name it tagdex, paste the URL, leave OAuth empty.',
  },
  {
    app: 'ChatGPT',
    steps:
      'with developer mode on (Settings → Apps & Connectors → Advanced), Create a connector: paste the URL, no authentication.',
  },
  {
    app: 'Cursor',
    steps: 'Settings → MCP → Add new MCP server, or put the .mcp.json entry below in ~/.cursor/mcp.json.',
  },
  {
    app: 'Claude Code',
    steps: 'claude mcp add --transport http tagdex <URL>, or put the .mcp.json entry below in the project.',
  },
];

/** Questions an assistant with the tools can answer. */
export const EXAMPLE_QUESTIONS: readonly string[] = [
  'What tags are trending in India this week, and which are rising?',
  'Score the title “IPL 2026 Final | CSK vs MI Highlights” for India and tell me what to change.',
  'Which tags does https://youtu.be/dQw4w9WgXcQ use, and how much of the 500-character budget is left?',
];
