// Agent-provided text with its hidden characters shown as escapes in a style of their own, so a
// literal "\u202E" typed by the agent never passes for one the card revealed.
import { revealHidden } from "@/server/wire/reveal-hidden";

const mark = "rounded-sm bg-amber-300 px-0.5 font-mono font-semibold text-zinc-950 not-italic";

export function RevealedText({ text }: { text: string }) {
  const { parts, hidden } = revealHidden(text);
  if (hidden === 0) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        p.hidden ? (
          <span
            key={i}
            className={mark}
            title="A hidden character, shown by its code"
            data-testid="hidden-char"
          >
            {p.text}
          </span>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
