/** Where the MCP endpoint lives, for the pipeline, the adapters' routing and the site's documentation. */
export const MCP_PATH = '/mcp';

/** Is this request target the MCP endpoint (its query ignored)? */
export function isMcpTarget(target: string): boolean {
  return target === MCP_PATH || target.startsWith(`${MCP_PATH}?`);
}
