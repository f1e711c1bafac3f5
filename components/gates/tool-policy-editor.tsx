"use client";
// Edits one tool policy (the pod's or one agent's) and saves it as one agent.policy.set, as
// the person. Checked here as the event schema checks it; the server's refusal shows beside Save.
import { useState } from "react";
import { setToolPolicy } from "@/server/web/server-actions";
import { useAction } from "../shared/use-action";
import { buttonClass, inputClass, secondaryButtonClass } from "../pod/form-styles";
import { Empty } from "../shared/ui";
import {
  bodyOf,
  LIMITS,
  moveRule,
  newRuleId,
  PRESETS,
  validateDraft,
  type PolicyDraft,
  type RuleDraft,
} from "./policy-draft";
import { RuleRow } from "./rule-row";
import { CommonToolsTable, ToolNamesList } from "./common-tools-table";

/** `onSaved`: told after the save (the panel says so: this editor starts afresh from the stored policy). */
type Props = { podId: string; agentId: string | undefined; initial: PolicyDraft; onSaved: () => void };

const small = "text-xs font-medium text-zinc-600 dark:text-zinc-400";

export function ToolPolicyEditor({ podId, agentId, initial, onSaved }: Props) {
  const [draft, setDraft] = useState(initial);
  const [tried, setTried] = useState(false);
  const { run, pending, error } = useAction(podId);
  const errors = validateDraft(draft);
  const shown = tried ? errors : {};
  const edit = (d: PolicyDraft) => setDraft(d);
  const setRules = (rules: RuleDraft[]) => edit({ ...draft, rules });
  const add = (rule: Omit<RuleDraft, "id">) =>
    setRules([...draft.rules, { ...rule, id: newRuleId(draft.rules) }]);
  const inherit = agentId === undefined ? "the default" : "the pod's";

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(errors).length) return;
    run(() => setToolPolicy({ podId, policy: bodyOf(draft, agentId) }), onSaved);
  };

  return (
    <form
      onSubmit={save}
      className="space-y-3"
      aria-label={agentId === undefined ? "The pod's tool policy" : `${agentId}'s tool policy`}
      noValidate
    >
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Rules are tried top to bottom and the <strong>first that matches wins</strong>; an agent&apos;s own
        rules come before the pod&apos;s. No match: the call goes ahead (the agent&apos;s own permissions
        still apply). Patterns: <code>*</code> any text, <code>?</code> one character, <code>|</code> between
        alternatives. One policy governs Claude Code, Codex and Gemini CLI: name a tool by its common name (
        <code>shell</code>, <code>read</code>, <code>write</code>, <code>edit</code>) or by an agent&apos;s
        own.
      </p>
      <CommonToolsTable />
      <ToolNamesList />
      {draft.rules.length === 0 ? (
        <Empty>No rules yet: every tool call goes ahead. Add one, or start from an example below.</Empty>
      ) : (
        <ol className="space-y-2" aria-label="Rules, first match wins">
          {draft.rules.map((r, i) => (
            <RuleRow
              key={r.id}
              rule={r}
              index={i}
              count={draft.rules.length}
              errors={shown}
              onChange={(rule) => setRules(draft.rules.map((x, j) => (j === i ? rule : x)))}
              onMove={(by) => setRules(moveRule(draft.rules, i, by))}
              onRemove={() => setRules(draft.rules.filter((_, j) => j !== i))}
            />
          ))}
        </ol>
      )}
      {shown.rules && <p className="text-xs text-red-700 dark:text-red-400">{shown.rules}</p>}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={draft.rules.length >= LIMITS.rules}
          onClick={() => add({ tool: "", input: "", outside: false, action: "ask" })}
        >
          Add rule
        </button>
        {PRESETS.map((p) => (
          <button
            key={p.label}
            type="button"
            className={secondaryButtonClass}
            disabled={draft.rules.length >= LIMITS.rules}
            onClick={() => add(p.rule)}
            title={`${p.rule.tool}${p.rule.input ? ` ${p.rule.outside ? "outside" : "matching"} ${p.rule.input}` : ""} → ${p.rule.action}`}
          >
            + {p.label}
          </button>
        ))}
      </div>
      <fieldset className="flex flex-wrap items-end gap-2">
        <legend className={`${small} mb-1`}>When a person is asked</legend>
        <select
          aria-label="Ask deadline"
          value={draft.ask}
          onChange={(e) => edit({ ...draft, ask: e.target.value as PolicyDraft["ask"] })}
          className={inputClass}
        >
          <option value="inherit">
            Use {inherit} (
            {agentId === undefined ? `${LIMITS.defaultMinutes} min, then deny` : "or the default"})
          </option>
          <option value="set">Set here</option>
        </select>
        {draft.ask === "set" && (
          <>
            <label className="flex flex-col gap-0.5">
              <span className={small}>Minutes to answer</span>
              <input
                type="number"
                inputMode="numeric"
                min={LIMITS.minMinutes}
                max={LIMITS.maxMinutes}
                value={draft.askMinutes}
                onChange={(e) => edit({ ...draft, askMinutes: e.target.value })}
                aria-invalid={!!shown.askMinutes}
                aria-describedby={shown.askMinutes ? "ask-minutes-error" : undefined}
                className={`${inputClass} w-24`}
              />
            </label>
            <label className="flex flex-col gap-0.5">
              <span className={small}>Then, if nobody answered</span>
              <select
                value={draft.askThen}
                onChange={(e) => edit({ ...draft, askThen: e.target.value as "allow" | "deny" })}
                className={inputClass}
              >
                <option value="deny">Deny</option>
                <option value="allow">Allow</option>
              </select>
            </label>
          </>
        )}
        {shown.askMinutes && (
          <p id="ask-minutes-error" className="basis-full text-xs text-red-700 dark:text-red-400">
            {shown.askMinutes}
          </p>
        )}
      </fieldset>
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span className={small}>If podwatch cannot be reached</span>
        <select
          value={draft.unreachable}
          onChange={(e) => edit({ ...draft, unreachable: e.target.value as PolicyDraft["unreachable"] })}
          className={inputClass}
        >
          <option value="inherit">
            Use {inherit} ({agentId === undefined ? "open" : "or open"})
          </option>
          <option value="open">Open: the hook allows</option>
          <option value="closed">Closed: the hook denies</option>
        </select>
      </label>
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span className={small}>When its turn ends (Claude Code&apos;s http hooks)</span>
        <select
          value={draft.idleHold}
          onChange={(e) => edit({ ...draft, idleHold: e.target.value })}
          className={inputClass}
        >
          <option value="inherit">Use {inherit} (or let it stop)</option>
          <option value="0">Let it stop</option>
          {[...new Set(["60", "300", String(LIMITS.maxIdleHold), draft.idleHold])]
            .filter((v) => v !== "inherit" && v !== "0")
            .map((v) => (
              <option key={v} value={v}>
                Wait {v} s for a person&apos;s Resume
              </option>
            ))}
        </select>
      </label>
      {agentId === undefined && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={!draft.recordPrompts}
            onChange={(e) => edit({ ...draft, recordPrompts: !e.target.checked })}
          />
          Keep prompt text off the tape (only each prompt&apos;s length is recorded)
        </label>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass} disabled={pending}>
          {pending ? "Saving…" : "Save policy"}
        </button>
        {tried && Object.keys(errors).length > 0 && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Fix the fields marked above; nothing was saved.
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}
