// A scripted fake of Anthropic's Messages API on 127.0.0.1, for tests that drive the real Claude
// Code program (ANTHROPIC_BASE_URL). `answer` picks each reply from the request (its messages,
// tools, system prompt); the fake streams it as server-sent events when the request asks for a
// stream, as Claude Code does, and records every request so a test sees what the program sent
// back (a tool's result, a hook's deny as an is_error tool_result).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Block =
  { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };
export type Reply = { content: Block[]; usage?: { input_tokens: number; output_tokens: number } };
export type MessagesRequest = {
  model: string;
  stream?: boolean;
  system?: unknown;
  tools?: { name: string }[];
  messages: { role: string; content: string | Record<string, any>[] }[];
};
export type FakeAnthropic = { url: string; requests: MessagesRequest[]; close: () => Promise<void> };

/** Every tool_result block the request carries back, oldest first. */
export const toolResults = (r: MessagesRequest) =>
  r.messages.flatMap((m) =>
    typeof m.content === "string" ? [] : m.content.filter((b) => b.type === "tool_result"),
  );
/** The first user message's text: which conversation (the session, a subagent) this request belongs to. */
export function firstUserText(r: MessagesRequest): string {
  const first = r.messages.find((m) => m.role === "user");
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  return first.content
    .filter((b) => b.type === "text")
    .map((b) => String(b.text))
    .join("\n");
}

export async function startFakeAnthropic(answer: (r: MessagesRequest) => Reply): Promise<FakeAnthropic> {
  const requests: MessagesRequest[] = [];
  let n = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: 100 }));
      return;
    }
    if (req.method !== "POST" || path !== "/v1/messages") {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(
          JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no ${path} here` } }),
        );
      return;
    }
    const r = JSON.parse(body) as MessagesRequest;
    requests.push(r);
    const reply = answer(r);
    const id = `msg_fake_${++n}`;
    const usage = reply.usage ?? { input_tokens: 1200, output_tokens: 80 };
    const stop = reply.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    if (!r.stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id,
          type: "message",
          role: "assistant",
          model: r.model,
          content: reply.content,
          stop_reason: stop,
          stop_sequence: null,
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (event: string, data: object) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    send("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model: r.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    });
    reply.content.forEach((b, index) => {
      if (b.type === "text") {
        send("content_block_start", { index, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
      } else {
        send("content_block_start", {
          index,
          content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
        });
        send("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
        });
      }
      send("content_block_stop", { index });
    });
    send("message_delta", {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    send("message_stop", {});
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
