// Compose's variable interpolation, for the compose file's schema check where `docker compose`
// is missing: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error},
// ${VAR:+alternative}, ${VAR+alternative}. Nested ${…} inside a default is not supported (we use none).

const TOKEN = /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([^}$]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** A required variable (`${VAR:?message}`) is unset or empty: compose refuses the file with this message. */
export class MissingVariableError extends Error {}

export function interpolateString(text: string, env: Record<string, string | undefined>): string {
  const out = text.replace(
    TOKEN,
    (
      _m,
      dollar: string | undefined,
      name: string | undefined,
      colon: string,
      op: string | undefined,
      arg: string,
      bare: string | undefined,
    ) => {
      if (dollar) return "\u0000"; // a literal $, restored below so it is not read again
      if (bare) return env[bare] ?? "";
      const value = env[name!];
      const missing = colon ? !value : value === undefined;
      if (!op) return value ?? "";
      if (op === "-") return missing ? arg : value!;
      if (op === "+") return missing ? "" : arg;
      if (missing) throw new MissingVariableError(`${name}: ${arg || "required"}`);
      return value!;
    },
  );
  if (out.includes("${")) throw new Error(`unsupported interpolation in ${JSON.stringify(text)}`);
  return out.replaceAll("\u0000", "$");
}

/** Every string value of a parsed compose file interpolated (keys are not, as in compose). */
export function interpolate<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === "string") return interpolateString(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  return value;
}
