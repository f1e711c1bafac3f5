// Headings of a markdown text as the anchors a link names (for the tests that check the docs' links).

/** A heading's anchor as GitHub renders it: lower case, punctuation dropped, spaces as hyphens. */
export const headingAnchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a markdown text's headings (lines starting with 1 to 6 `#`). */
export const headingAnchors = (text: string) =>
  new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingAnchor(m[1]!)));
