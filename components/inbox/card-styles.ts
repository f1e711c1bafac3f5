// The inbox card's look, shared by the card and its panels (a held tool call, a crossed budget),
// so their buttons and labels read as one card.
export const cardButton =
  "rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50";
export const plainButton = `${cardButton} border border-zinc-300 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800`;
export const greenButton = `${cardButton} bg-emerald-700 text-white hover:bg-emerald-600`;
export const redButton = `${cardButton} bg-red-700 text-white hover:bg-red-600`;
export const fieldLabel = "text-xs font-medium text-zinc-600 dark:text-zinc-400";
