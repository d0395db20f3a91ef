"""prove-env: live, stateful MCP tool-use environments with programmatic rewards."""
