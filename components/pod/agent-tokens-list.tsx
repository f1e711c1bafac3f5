"use client";
// One agent's tokens: label, created, last used, revoked; new, revoke and rotate
// (each asks first). Revoking ends the agent's live connections at once.
import type { AgentTokenInfo } from "@/server/wire/access";
import { createAgentToken, revokeAgentToken, rotateAgentToken } from "@/server/web/server-actions";
import { RelativeTime } from "../shared/relative-time";
import { Badge } from "../shared/ui";
import { ConfirmButton } from "../shared/confirm-button";
import { useTokenAction } from "./use-agent-tokens";
import type { RevealedToken } from "./token-snippets";

const small =
  "rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";
const danger = "rounded-md bg-red-700 px-2 py-0.5 font-medium text-white disabled:opacity-50";
type Reveal = (t: Omit<RevealedToken, "publicUrl" | "podId">) => void;

export function AgentTokensList({
  podId,
  memberId,
  tokens,
  onToken,
}: {
  podId: string;
  memberId: string;
  tokens: AgentTokenInfo[];
  onToken: Reveal;
}) {
  const { run, pending, error } = useTokenAction(podId);
  return (
    <div className="space-y-1">
      {tokens.length === 0 ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          No tokens yet: the agent cannot connect until it has one.
        </p>
      ) : (
        <ul className="space-y-1" aria-label={`Tokens of ${memberId}`}>
          {tokens.map((t) => (
            <TokenRow key={t.id} podId={podId} token={t} onToken={onToken} />
          ))}
        </ul>
      )}
      <button
        disabled={pending}
        className={small}
        onClick={() =>
          run(
            () => createAgentToken({ podId, memberId }),
            (v) => onToken({ token: v.token, memberId, heading: `New token for ${memberId}` }),
          )
        }
      >
        New token for {memberId}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function TokenRow({ podId, token: t, onToken }: { podId: string; token: AgentTokenInfo; onToken: Reveal }) {
  const { run, pending, error } = useTokenAction(podId);
  const name = t.label || "token";
  const revoke = () =>
    run(
      () => revokeAgentToken({ podId, tokenId: t.id }),
      () => undefined,
    );
  const rotate = () =>
    run(
      () => rotateAgentToken({ podId, tokenId: t.id }),
      (v) =>
        onToken({
          token: v.token,
          memberId: t.memberId,
          heading: `Rotated: the new token for ${t.memberId}`,
        }),
    );
  return (
    <li
      data-testid="agent-token"
      data-token-id={t.id}
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md px-2 py-1 text-xs ${t.revokedAt ? "text-zinc-500" : ""}`}
    >
      <span className="font-medium">{name}</span>
      <span>
        created <RelativeTime iso={t.createdAt} />
      </span>
      <span>
        {t.lastUsedAt ? (
          <>
            last used <RelativeTime iso={t.lastUsedAt} />
          </>
        ) : (
          "never used"
        )}
      </span>
      {t.revokedAt ? (
        <Badge tone="red">
          revoked <RelativeTime iso={t.revokedAt} />
        </Badge>
      ) : (
        <span className="ml-auto flex flex-wrap gap-2">
          <ConfirmButton
            question={`Rotate ${name}? The old token stops working at once.`}
            confirmLabel="Yes, rotate"
            groupLabel={`Confirm rotating ${name} of ${t.memberId}`}
            pending={pending}
            onConfirm={rotate}
            buttonClass={small}
            confirmClass={danger}
            label={`Rotate ${name} of ${t.memberId}`}
          >
            Rotate
          </ConfirmButton>
          <ConfirmButton
            question={`Revoke ${name}? ${t.memberId} is disconnected at once.`}
            confirmLabel="Yes, revoke"
            groupLabel={`Confirm revoking ${name} of ${t.memberId}`}
            pending={pending}
            onConfirm={revoke}
            buttonClass={small}
            confirmClass={danger}
            label={`Revoke ${name} of ${t.memberId}`}
          >
            Revoke
          </ConfirmButton>
        </span>
      )}
      {error && (
        <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </li>
  );
}
