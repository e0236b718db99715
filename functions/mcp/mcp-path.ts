/** Where the MCP endpoint lives, for the pipeline, the adapters' routing and the site's documentation. */
export const MCP_PATH = '/mcp';
