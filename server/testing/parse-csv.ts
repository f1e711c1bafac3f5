// An RFC 4180 reader for tests: quoted fields (with "" for a quote, commas and line breaks
// inside), CRLF or LF line ends. Strict: a stray quote in an unquoted field is an error.
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const endRow = () => {
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    let value = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"' && text[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (text[i] === '"') break;
        else value += text[i++];
      }
      i++;
    } else {
      while (i < text.length && !",\r\n".includes(text[i]!)) {
        if (text[i] === '"') throw new Error(`stray quote at ${i}`);
        value += text[i++];
      }
    }
    row.push(value);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") i += 2;
    else if (text[i] === "\n") i++;
    else if (i < text.length) throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
    endRow();
  }
  return rows;
}
