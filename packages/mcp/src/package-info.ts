/** What this package reports to MCP peers as its implementation. */
export const PACKAGE_NAME = "gantry";
export const PACKAGE_VERSION = "0.1.0";
