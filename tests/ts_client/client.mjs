// Drive `prove-env serve <server>` over stdio with the official MCP TypeScript SDK and print
// what it saw as one JSON object: the listed tools, and the results of the calls given as
// JSON on the command line: node client.mjs <command> <args-json> <calls-json>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, argsJson, callsJson] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args: JSON.parse(argsJson), stderr: "inherit" });
const client = new Client({ name: "prove-env-ts-check", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const results = [];
for (const call of JSON.parse(callsJson)) {
  const result = await client.callTool({ name: call.name, arguments: call.arguments });
  results.push({ name: call.name, isError: Boolean(result.isError), text: result.content.map((c) => c.text).join("\n") });
}
await client.close();
console.log(JSON.stringify({
  server: client.getServerVersion(),
  tools: tools.map((t) => ({ name: t.name, annotations: t.annotations ?? null, required: t.inputSchema.required ?? [] })),
  results,
}));
