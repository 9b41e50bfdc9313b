/** pravo's version, as `--version` and the MCP server's `serverInfo` show it. */
export const VERSION = "0.1.0-dev";
