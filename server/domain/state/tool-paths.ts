// What a file tool reads or writes, for path rules: the file of Read, Edit, Write, MultiEdit and
// NotebookEdit, and the folder a search covers — Grep's and LS's `path`, Glob's `pattern` under
// its `path` — each resolved against the call's folder. A search is matched by its glob's fixed
// prefix (`/etc/*` searches under `/etc`), and covers everything below it: `deny /etc/*`, or
// `deny /etc/ssh/*`, denies a Grep of `/etc`, since it reads those files. Pure.

/** Where each tool names its file, or the folder (and glob) it searches; a search without a path runs in the call's folder. */
const TOOLS: Record<string, { file: string } | { folder: string; glob?: string }> = {
  Read: { file: "file_path" },
  Write: { file: "file_path" },
  Edit: { file: "file_path" },
  MultiEdit: { file: "file_path" },
  NotebookEdit: { file: "notebook_path" },
  Grep: { folder: "path" },
  Glob: { folder: "path", glob: "pattern" },
  LS: { folder: "path" },
};

/**
 * `whole`: the path (or Glob's pattern) relative to the call's folder when inside it; `forms`: what
 * rules match (that and the absolute path; for a search, each also as `dir/`, so `/etc/*` covers a
 * search of `/etc`); `under`: the folder a search reads below; `risky`: where it reads cannot be
 * told (a `..` after a wildcard), so no allow rule may wave it on.
 */
export type PathSubject = {
  whole: string;
  absolute: string;
  forms: string[];
  key: string;
  under: string | null;
  risky: boolean;
};

export function normalizePath(p: string): string {
  const absolute = p.startsWith("/");
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(seg);
  }
  return (absolute ? "/" : "") + out.join("/");
}

export function relativeTo(path: string, cwd: string | null): string {
  if (!cwd || !path.startsWith("/")) return path;
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

const resolve = (p: string, cwd: string | null) =>
  normalizePath(p.startsWith("/") || !cwd ? p : `${cwd}/${p}`);
const WILD = /[*?[\]{}]/;
const asFolder = (p: string) => (p.endsWith("/") ? p : `${p}/`);

/** A path tool's subject; null for other tools, or a file tool whose input names no file. */
export function pathSubject(tool: string, input: unknown, cwd?: string | null): PathSubject | null {
  const spec = Object.hasOwn(TOOLS, tool) ? TOOLS[tool]! : null;
  const obj = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  if (!spec) return null;
  const base = cwd ? normalizePath(cwd) : null;
  if ("file" in spec) {
    const raw = obj[spec.file];
    if (typeof raw !== "string") return null;
    const absolute = resolve(raw, base);
    const whole = relativeTo(normalizePath(raw), base);
    return { whole, absolute, forms: [whole, absolute], key: absolute, under: null, risky: false };
  }
  const folder = typeof obj[spec.folder] === "string" ? (obj[spec.folder] as string) : null;
  const glob = spec.glob && typeof obj[spec.glob] === "string" ? (obj[spec.glob] as string) : null;
  // Glob's pattern, absolute or under its folder (else the call's); Grep's and LS's folder.
  const searched = glob === null ? (folder ?? ".") : glob.startsWith("/") ? glob : `${folder ?? "."}/${glob}`;
  const segments = searched.split("/");
  const wild = segments.findIndex((s) => WILD.test(s));
  const fixed =
    wild < 0 ? searched : segments.slice(0, wild).join("/") || (searched.startsWith("/") ? "/" : ".");
  // A `..` after a wildcard may climb anywhere (`**` is any depth, `{..,a}` is a `..`): the
  // search is read as the whole disk.
  const risky = wild >= 0 && segments.slice(wild).some((seg) => seg.includes(".."));
  const under = risky ? "/" : resolve(fixed, base) || ".";
  const whole = relativeTo(risky ? searched : normalizePath(searched), base) || ".";
  const near = relativeTo(under, base);
  const forms = [...new Set([whole, near, under, asFolder(near), asFolder(under)])];
  // "Allow for this session" remembers this exact search: the folder and the whole input.
  const exact = JSON.stringify(Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : 1))));
  return { whole, absolute: under, forms, key: `${under}\n${exact}`, under, risky };
}

type Token = "*" | "?" | { c: string };

/** A pattern's alternatives, split on unescaped "|" and trimmed (tool-policy.ts matches them too). */
export function alternatives(pattern: string): string[] {
  const raw: string[] = [];
  let current = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) current += c + pattern[++i];
    else if (c === "|") {
      raw.push(current);
      current = "";
    } else current += c;
  }
  raw.push(current);
  return raw.map((a) => a.trim()).filter((a) => a.length > 0);
}

/** One alternative as tokens: `*` any run of characters, `?` one, `\` escapes the next. */
function tokens(alt: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < alt.length; i++) {
    const c = alt[i]!;
    if (c === "\\" && i + 1 < alt.length) out.push({ c: alt[++i]! });
    else out.push(c === "*" || c === "?" ? c : { c });
  }
  return out;
}

/** A pattern's alternatives as tokens. */
const tokenAlternatives = (pattern: string): Token[][] => alternatives(pattern).map(tokens);

/** Whether one alternative matches the whole text; linear in the text (no backtracking blow-up). */
export const globMatches = (glob: string, text: string): boolean => greedy(tokens(glob), text, false);

/**
 * The classic greedy glob match (on a mismatch the last star takes one more character), linear in
 * the text: whether `alt` matches `text` whole, or — `prefix` — some text that starts with it.
 */
function greedy(alt: Token[], text: string, prefix: boolean): boolean {
  let t = 0;
  let s = 0;
  let starT = -1;
  let starS = 0;
  while (s < text.length) {
    const tok = alt[t];
    if (tok !== undefined && (tok === "?" || (tok !== "*" && tok.c === text[s]))) {
      t++;
      s++;
    } else if (tok === "*") {
      starT = t++;
      starS = s;
    } else if (starT >= 0) {
      t = starT + 1;
      s = ++starS;
    } else return false;
  }
  if (prefix) return true;
  while (alt[t] === "*") t++;
  return t === alt.length;
}

/**
 * Whether `pattern` matches `folder` or some path below it: a deny or ask rule covers a search
 * that would read any file it names. Linear in the folder's length (times the pattern's stars).
 */
export function mayMatchUnder(pattern: string, folder: string): boolean {
  const below = asFolder(folder);
  return tokenAlternatives(pattern).some((alt) => greedy(alt, folder, false) || greedy(alt, below, true));
}
