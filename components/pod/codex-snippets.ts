// What a Codex user pastes to report into a pod: the kit installed from this server, then
// `podwatch hooks install --agent codex`, which writes the hooks.json shown beside it (the same
// value: agent/hooks/codex-hooks.ts). Codex has command hooks only, so every hook runs `podwatch`,
// and it skips new hooks until they are trusted in its /hooks view.
import { codexHooks } from "@/agent/hooks/codex-hooks";
import { settingsWith, TOKEN_ENV } from "@/agent/hooks/settings-snippet";
import { origin, shellWord, type ConnectSnippet, type SnippetInput } from "./agent-snippets";

/** On the machine Codex runs on, in the shell Codex will be started from. */
export function codexHooksSnippet({ publicUrl, token }: SnippetInput): string {
  return [
    `export PODWATCH_URL=${shellWord(origin(publicUrl))} ${TOKEN_ENV}=${shellWord(token)}`,
    `npm install -g "$PODWATCH_URL/agent/podwatch.tgz"`,
    "podwatch hooks install --agent codex",
  ].join("\n");
}

/** `$CODEX_HOME/hooks.json` (default ~/.codex) as the install writes it, for those who paste it themselves. */
export const codexHooksJsonSnippet = (): string => JSON.stringify(settingsWith(codexHooks()), null, 2);

/** The Codex tab's snippets, pasted in order on one machine (connect-snippets.integration.test.ts runs them). */
export const CODEX_FORMS: Record<string, ConnectSnippet[]> = {
  codex: [{ kind: "shell", text: codexHooksSnippet }],
};
