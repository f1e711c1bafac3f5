// `podwatch mcp`: the pod's tools for an MCP client, over stdio.
import type { Command } from "../command";

export const mcp: Command = {
  name: "mcp",
  summary: "Serve the pod's tools to an MCP client over stdio",
  examples: [
    'MCP client config: { "command": "podwatch", "args": ["mcp"], "env": { "PODWATCH_URL": "…", "PODWATCH_TOKEN": "…" } }',
  ],
  run: async ({ agent, signal }) => {
    const { serveMcp } = await import("../../mcp/mcp-server");
    await serveMcp(agent(), signal);
    return { text: "", json: undefined };
  },
};
