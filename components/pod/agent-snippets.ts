// What an agent needs to join, as text to paste: the CLI's shell environment
// and an MCP client's config, filled in with this server's URL and the token.

export type SnippetInput = { publicUrl: string; podId: string; token: string };

/** A word the shell reads back exactly: bare when it is plainly safe, else single-quoted. */
export const shellWord = (s: string) => (/^[A-Za-z0-9_\-.:/@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function shellSnippet({ publicUrl, podId, token }: SnippetInput): string {
  return `export PODWATCH_URL=${shellWord(publicUrl)} PODWATCH_TOKEN=${shellWord(token)} PODWATCH_POD=${shellWord(podId)}`;
}

/** The MCP server as the README's MCP section configures it (`podwatch mcp` over stdio). */
export function mcpSnippet({ publicUrl, podId, token }: SnippetInput): string {
  const server = { command: "podwatch", args: ["mcp"], env: { PODWATCH_URL: publicUrl, PODWATCH_TOKEN: token, PODWATCH_POD: podId } };
  return JSON.stringify({ mcpServers: { podwatch: server } }, null, 2);
}
