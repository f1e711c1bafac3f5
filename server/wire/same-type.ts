// A check the compiler makes, not the server: a zod schema and the TypeScript type it describes
// agree both ways (each assignable to the other), where the type is the domain's and cannot be
// derived from the schema (the domain imports nothing from the wire).

/** `true` only when A and B are assignable to each other. */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when its argument is `true`: `agree<SameType<z.output<typeof ZX>, X>>()`. */
export const agree = <_Check extends true>(): void => undefined;
