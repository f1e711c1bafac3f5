/** Only a path on this site: a sign-in link must never send people elsewhere (//host, /\host, https:…). */
export function localPath(next: string | undefined): string {
  if (!next) return "/";
  try {
    const base = "http://podwatch.invalid";
    const url = new URL(next, base);
    return url.origin === base && next.startsWith("/") ? `${url.pathname}${url.search}${url.hash}` : "/";
  } catch {
    return "/";
  }
}
