import { describe, expect, it } from "vitest";
import type { InboxItem } from "../domain/state/pod-state";
import { slackBody } from "./slack";
import type { TapeEvent } from "../wire/events";

// Agents write inbox titles and event actors; Slack reads `<…>` as a mention or a link in the
// top-level `text` (the notification) as much as in the blocks.
const hostile = "<!channel> <https://evil.example|Approve> & more";
const pod = { id: "p1", name: "pod <!here>", url: "https://podwatch.example" };

describe("Slack bodies", () => {
  it("escape agent text in the top-level text as in the blocks", () => {
    const item = {
      id: "i1",
      kind: "escalation",
      title: hostile,
      subject: { kind: "escalation", id: "e1" },
      at: new Date().toISOString(),
    } as InboxItem;
    const bodies = [
      slackBody({ id: "m1", type: "inbox.opened", timestamp: item.at, kind: "opened", item }, pod),
      slackBody({ id: "m2", type: "inbox.closed", timestamp: item.at, kind: "closed", itemId: hostile }, pod),
      slackBody(
        {
          id: "m3",
          type: "checkpoint",
          timestamp: item.at,
          kind: "event",
          event: { type: "checkpoint", actor: hostile, seq: 3 } as TapeEvent,
        },
        pod,
      ),
    ];
    for (const body of bodies) {
      expect(body.text).not.toMatch(/<[!h]/);
      expect(body.text).toContain("&lt;!channel&gt; &lt;https://evil.example|Approve&gt; &amp; more");
      expect(body.text).toContain("pod &lt;!here&gt;");
    }
    expect(bodies[0]!.blocks[0]).toMatchObject({
      type: "header",
      text: { type: "plain_text", text: hostile },
    });
  });
});
