/**
 * Stands in for `ajv` and `ajv-formats` in the Worker's bundle (wrangler.toml `[alias]`) and the Node server's
 * (ingest/server-bundle.ts). The MCP SDK's `Server` imports its Ajv validator, but tagdex's server is given its own
 * (functions/mcp/mcp-handler.ts: it validates no client answers), so Ajv is never built there; leaving it out keeps
 * ~290 KiB out of the script.
 */
export default class AjvLeftOut {
  constructor() {
    throw new Error('Ajv is not bundled into the Worker: pass the MCP server a jsonSchemaValidator.');
  }
}
