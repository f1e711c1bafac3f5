// A scripted fake of the OpenAI Responses API on 127.0.0.1, for tests that drive the real Codex
// CLI: `POST /v1/responses` answers in SSE. A turn's first request gets one shell call (the
// command the test scripts); once the call's result comes back, a closing message. Every
// request body is kept, so a test sees what the tool returned (or that a hook blocked it).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeCodexApi = {
  baseUrl: string;
  /** The function_call_output texts Codex sent back, in order. */
  toolResults: string[];
  close: () => Promise<void>;
};

type Input = { type?: string; call_id?: string; output?: unknown }[];

/** `command(prompt)`: the shell command the fake model runs for a prompt. */
export async function fakeCodexApi(command: (prompt: string) => string): Promise<FakeCodexApi> {
  const toolResults: string[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input?: Input };
      const input = body.input ?? [];
      const results = input.filter((i) => i.type === "function_call_output");
      const id = `resp_${++n}`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (type: string, data: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send("response.created", { response: { id } });
      if (!results.length) {
        const call = {
          type: "function_call",
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: "exec_command",
          arguments: JSON.stringify({ cmd: command(JSON.stringify(input)) }),
        };
        send("response.output_item.done", { item: call });
      } else {
        for (const r of results)
          toolResults.push(typeof r.output === "string" ? r.output : JSON.stringify(r.output));
        const text = { type: "output_text", text: "Checkpoint: the file step is done." };
        send("response.output_item.done", {
          item: { type: "message", role: "assistant", id: `msg_${n}`, content: [text] },
        });
      }
      const usage = {
        input_tokens: 1000,
        input_tokens_details: { cached_tokens: 200 },
        output_tokens: 100,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1100,
      };
      send("response.completed", { response: { id, usage } });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    toolResults,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
