"use client";
// One rule of a tool policy, editable: its tool (a common name such as shell, or an agent's own)
// and input patterns, "outside", its action,
// and buttons to move it (the first rule that matches decides) or remove it.
import { TOOL_ACTIONS } from "@/server/wire/vocabulary";
import { inputClass, secondaryButtonClass } from "../pod/form-styles";
import type { RuleDraft } from "./policy-draft";
import { TOOL_NAMES_LIST_ID } from "./common-tools-table";

type Props = {
  rule: RuleDraft;
  index: number;
  count: number;
  errors: Record<string, string>;
  onChange: (rule: RuleDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

const ACTION_LABEL = { allow: "Allow", deny: "Deny", ask: "Ask a person" } as const;
const small = "text-xs font-medium text-zinc-600 dark:text-zinc-400";

export function RuleRow({ rule, index, count, errors, onChange, onMove, onRemove }: Props) {
  const n = index + 1;
  const base = `rule-${index}`;
  const toolError = errors[`rules.${index}.tool`];
  const inputError = errors[`rules.${index}.input`];
  return (
    <li
      className="space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
      data-testid="policy-rule"
      aria-label={`Rule ${n}`}
    >
      <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto_auto]">
        <label className="flex min-w-0 flex-col gap-0.5">
          <span className={small}>Tool</span>
          <input
            value={rule.tool}
            onChange={(e) => onChange({ ...rule, tool: e.target.value })}
            aria-label={`Tool pattern, rule ${n}`}
            aria-invalid={!!toolError}
            aria-describedby={toolError ? `${base}-tool-error` : undefined}
            placeholder="shell"
            list={TOOL_NAMES_LIST_ID}
            className={`${inputClass} font-mono`}
          />
        </label>
        <label className="flex min-w-0 flex-col gap-0.5">
          <span className={small}>Input matches (optional)</span>
          <input
            value={rule.input}
            onChange={(e) => onChange({ ...rule, input: e.target.value })}
            aria-label={`Input pattern, rule ${n}`}
            aria-invalid={!!inputError}
            aria-describedby={inputError ? `${base}-input-error` : undefined}
            placeholder="git push*|rm -rf*"
            className={`${inputClass} font-mono`}
          />
        </label>
        <label
          className="flex items-center gap-1.5 self-end pb-1 text-sm"
          title="The rule matches when the input does NOT match the pattern (e.g. Write outside src/*)"
        >
          <input
            type="checkbox"
            checked={rule.outside}
            onChange={(e) => onChange({ ...rule, outside: e.target.checked })}
            aria-label={`Outside the pattern, rule ${n}`}
          />
          outside
        </label>
        <label className="flex flex-col gap-0.5">
          <span className={small}>Then</span>
          <select
            value={rule.action}
            onChange={(e) => onChange({ ...rule, action: e.target.value as RuleDraft["action"] })}
            aria-label={`Action, rule ${n}`}
            className={inputClass}
          >
            {TOOL_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABEL[a]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {toolError && (
        <p id={`${base}-tool-error`} className="text-xs text-red-700 dark:text-red-400">
          {toolError}
        </p>
      )}
      {inputError && (
        <p id={`${base}-input-error`} className="text-xs text-red-700 dark:text-red-400">
          {inputError}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs text-zinc-500">
          #{n} · {rule.id}
        </span>
        <button
          type="button"
          className={`${secondaryButtonClass} ml-auto`}
          disabled={index === 0}
          onClick={() => onMove(-1)}
          aria-label={`Move rule ${n} up`}
        >
          ↑
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`Move rule ${n} down`}
        >
          ↓
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={onRemove}
          aria-label={`Remove rule ${n}`}
        >
          Remove
        </button>
      </div>
    </li>
  );
}
