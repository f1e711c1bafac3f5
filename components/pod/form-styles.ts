// The control room's form look, shared by the pod's setup, lifecycle and sharing forms.
export const inputClass =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950";
export const buttonClass =
  "rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900";
export const secondaryButtonClass =
  "rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";
export const dangerButtonClass =
  "rounded-md bg-red-700 px-3 py-1 text-sm font-medium text-white disabled:opacity-50 dark:bg-red-600";
