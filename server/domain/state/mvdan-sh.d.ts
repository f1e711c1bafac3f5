// mvdan-sh ships no types; shell-parse.ts, its one user, describes the little it reads.
declare module "mvdan-sh" {
  const mvdan: unknown;
  export default mvdan;
}
