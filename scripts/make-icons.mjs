// Renders podwatch's app icons (public/icons/*.png) from one SVG with sharp. Run once
// after changing the design (`node scripts/make-icons.mjs`); the PNGs are committed.
import sharp from "sharp";

const mark = (size, { rounded, inset }) => {
  const r = size * (0.5 - inset) * 0.42;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" rx="${rounded ? size * 0.2 : 0}" fill="#18181b"/>
  <circle cx="${size / 2}" cy="${size / 2}" r="${r * 1.9}" fill="none" stroke="#3f3f46" stroke-width="${size * 0.035}"/>
  <circle cx="${size / 2}" cy="${size / 2}" r="${r}" fill="#10b981"/>
</svg>`;
};
const badge = (size) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><circle cx="${size / 2}" cy="${size / 2}" r="${size * 0.3}" fill="#fff"/></svg>`;

const out = new URL("../public/icons/", import.meta.url).pathname;
await sharp(Buffer.from(mark(192, { rounded: true, inset: 0.05 })))
  .png()
  .toFile(`${out}icon-192.png`);
await sharp(Buffer.from(mark(512, { rounded: true, inset: 0.05 })))
  .png()
  .toFile(`${out}icon-512.png`);
// Maskable: full bleed, the mark inside the 80% safe zone.
await sharp(Buffer.from(mark(512, { rounded: false, inset: 0.15 })))
  .png()
  .toFile(`${out}maskable-512.png`);
await sharp(Buffer.from(mark(180, { rounded: false, inset: 0.08 })))
  .png()
  .toFile(`${out}apple-touch-icon.png`);
await sharp(Buffer.from(badge(96)))
  .png()
  .toFile(`${out}badge-96.png`);
