// A scripted fake of the Gemini API on 127.0.0.1, for tests that drive the real Gemini CLI
// (GOOGLE_GEMINI_BASE_URL). Each streamGenerateContent call gets the next step of the script as
// one server-sent event: a function call, or text with its usage. It keeps every request, so a
// test reads what the CLI sent back (a tool's result, a hook's block). Other calls (a JSON
// check the CLI makes on its own) answer that the user speaks next.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type GeminiStep =
  | { call: { name: string; args: Record<string, unknown> } }
  | { text: string; usage?: { promptTokenCount: number; candidatesTokenCount: number } };

export type FakeGeminiApi = {
  url: string;
  /** Every request body the CLI sent to generate content, in order, with its path. */
  requests: { path: string; body: Record<string, unknown> }[];
  close: () => Promise<void>;
};

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on("data", (c: Buffer) => chunks.push(c))
      .on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

function candidate(step: GeminiStep) {
  const parts = "call" in step ? [{ functionCall: step.call }] : [{ text: step.text }];
  const usage = "text" in step ? step.usage : undefined;
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: usage?.promptTokenCount ?? 100,
      candidatesTokenCount: usage?.candidatesTokenCount ?? 10,
      totalTokenCount: (usage?.promptTokenCount ?? 100) + (usage?.candidatesTokenCount ?? 10),
    },
    modelVersion: "gemini-2.5-flash",
  };
}

/** `script` steps are served in order, one per streamed turn; past its end, "Done." */
export async function startFakeGeminiApi(script: GeminiStep[]): Promise<FakeGeminiApi> {
  const requests: FakeGeminiApi["requests"] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    void read(req).then((text) => {
      const path = req.url ?? "";
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: kept as an empty body
      }
      requests.push({ path, body });
      if (path.includes(":streamGenerateContent")) {
        const step = script[next++] ?? { text: "Done." };
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(candidate(step))}\r\n\r\n`);
        return;
      }
      if (path.includes(":generateContent")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify(candidate({ text: JSON.stringify({ reasoning: "done", next_speaker: "user" }) })),
        );
        return;
      }
      if (path.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ totalTokens: 100 }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: 404, message: "not in the fake", status: "NOT_FOUND" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
