// A scripted fake of the OpenAI Responses API on 127.0.0.1, for tests that drive the real Codex
// CLI: `POST /v1/responses` answers in SSE, each reply (a shell call or a closing message) picked
// by the test's script from the request's input. Every request's input is kept, so a test sees
// what a tool returned, what a hook added for the model, or that a hook blocked a call.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One item of a request's `input`: a message (its content parts), a function call or its output. */
export type CodexItem = {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  output?: unknown;
};
/** What the model answers: one shell command to run, or its closing text. */
export type CodexReply = { command: string } | { text: string };

export type FakeCodexApi = {
  baseUrl: string;
  /** The function_call_output texts each request carried back, in order. */
  toolResults: string[];
  /** Every request's input, in order. */
  requests: CodexItem[][];
  close: () => Promise<void>;
};

/** The outputs of the calls a request carries back, oldest first. */
export const codexOutputs = (input: CodexItem[]) =>
  input
    .filter((i) => i.type === "function_call_output")
    .map((i) => (typeof i.output === "string" ? i.output : JSON.stringify(i.output)));

const USAGE = {
  input_tokens: 1000,
  input_tokens_details: { cached_tokens: 200 },
  output_tokens: 100,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 1100,
};

/** `answer(input)` picks each reply from the request's whole input. */
export async function scriptedCodexApi(answer: (input: CodexItem[]) => CodexReply): Promise<FakeCodexApi> {
  const toolResults: string[] = [];
  const requests: CodexItem[][] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) return void res.writeHead(404).end();
      const input =
        (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input?: CodexItem[] }).input ?? [];
      toolResults.push(...codexOutputs(input));
      requests.push(input);
      const reply = answer(input);
      const id = `resp_${++n}`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (type: string, data: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send("response.created", { response: { id } });
      const item =
        "command" in reply
          ? {
              type: "function_call",
              id: `fc_${n}`,
              call_id: `call_${n}`,
              name: "exec_command",
              arguments: JSON.stringify({ cmd: reply.command }),
            }
          : {
              type: "message",
              role: "assistant",
              id: `msg_${n}`,
              content: [{ type: "output_text", text: reply.text }],
            };
      send("response.output_item.done", { item });
      send("response.completed", { response: { id, usage: USAGE } });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    toolResults,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * One shell call per turn: a turn's first request gets `command(prompt)`; once the call's result
 * comes back, a closing message.
 */
export const fakeCodexApi = (command: (prompt: string) => string) =>
  scriptedCodexApi((input) =>
    codexOutputs(input).length
      ? { text: "Checkpoint: the file step is done." }
      : { command: command(JSON.stringify(input)) },
  );
