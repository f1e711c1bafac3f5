// A gzipped tar archive in the ustar format npm reads (its `package/` folder): regular files only,
// with fixed owners and times so the same files always make the same bytes (an ETag that holds).
import { promisify } from "node:util";
import { gzip } from "node:zlib";

export type TarFile = { path: string; bytes: Buffer; mode?: number };

const BLOCK = 512;
/** npm's own fixed time for packed files (1985-10-26T08:15:00Z), so a repack changes no byte. */
const MTIME = 499162500;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

function header(file: TarFile): Buffer {
  const name = Buffer.from(file.path, "utf8");
  // ustar keeps 100 bytes of name and 155 of prefix: our paths are short and fixed, so refuse the rest.
  if (name.length > 100 || /[^\x20-\x7e]/.test(file.path))
    throw new Error(`tar: path too long or not ASCII: ${file.path}`);
  const h = Buffer.alloc(BLOCK);
  name.copy(h, 0);
  h.write(octal(file.mode ?? 0o644, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii"); // uid
  h.write(octal(0, 8), 116, "ascii"); // gid
  h.write(octal(file.bytes.length, 12), 124, "ascii");
  h.write(octal(MTIME, 12), 136, "ascii");
  h.write("        ", 148, "ascii"); // the checksum is summed with its own field as spaces
  h.write("0", 156, "ascii"); // a regular file
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(octal(sum, 7) + " ", 148, "ascii");
  return h;
}

/** The files as one .tgz, in the order given. gzip runs on libuv's pool, off the event loop. */
export async function tarball(files: TarFile[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(header(file), file.bytes);
    const pad = (BLOCK - (file.bytes.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // the end of the archive: two empty blocks
  return promisify(gzip)(Buffer.concat(parts), { level: 9 });
}
