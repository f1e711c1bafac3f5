// What a Gemini CLI session needs to report into a pod, as text to paste: install the agent kit
// the server serves, install podwatch's hooks into Gemini's user settings, start Gemini from that
// shell (its hooks read PODWATCH_URL and PODWATCH_TOKEN), and the hooks as the settings hold them.
import { geminiHooks } from "@/agent/hooks/gemini-settings-snippet";
import { origin, shellWord, type ConnectSnippet, type SnippetInput } from "./agent-snippets";

/** The shell steps, on the machine where Gemini CLI runs (Node only; no clone of podwatch). */
export function geminiSetupSnippet({ publicUrl, token }: SnippetInput): string {
  return [
    `export PODWATCH_URL=${shellWord(origin(publicUrl))} PODWATCH_TOKEN=${shellWord(token)}`,
    `npm install -g "$PODWATCH_URL/agent/podwatch.tgz"`,
    "podwatch hooks install --agent gemini",
  ].join("\n");
}

/** The `hooks` that `podwatch hooks install --agent gemini` merges into ~/.gemini/settings.json. */
export function geminiHooksSnippet(): string {
  return JSON.stringify({ hooks: geminiHooks() }, null, 2);
}

/** The Gemini CLI tab's snippets, pasted in order on one machine (connect-snippets.integration.test.ts runs them). */
export const GEMINI_FORMS: Record<string, ConnectSnippet[]> = {
  gemini: [{ kind: "shell", text: geminiSetupSnippet }],
};
