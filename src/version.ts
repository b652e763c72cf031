/** The tool's version, as reports, bags and `--version` state it. */
export const TOOL_VERSION = '0.1.0';
