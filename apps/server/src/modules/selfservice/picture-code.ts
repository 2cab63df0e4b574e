import { randomInt } from 'node:crypto';
import { PICTURE_CODE_ALPHABET } from '@sunwatch/protocol';

/**
 * 5×7 bitmap glyphs of the picture-code alphabet (digits and capitals), one row per number, bit 4
 * the leftmost pixel. The picture is drawn as jittered squares: no character appears as text in
 * the image's source.
 */
const GLYPHS: Record<string, readonly number[]> = {
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [28, 18, 17, 17, 17, 18, 28],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 17, 10, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
};

export const PICTURE_WIDTH = 120;
export const PICTURE_HEIGHT = 40;

/** A random picture code from the protocol's alphabet (crypto randomness). */
export function newPictureCode(): string {
  let s = '';
  for (let i = 0; i < 4; i++) s += PICTURE_CODE_ALPHABET[randomInt(PICTURE_CODE_ALPHABET.length)];
  return s;
}

const COLORS = ['#1f4e79', '#7a2e8e', '#2e7d32', '#b23c17', '#37474f'];

/** The code drawn as an SVG data URL (120×40): pixel glyphs with jitter, noise lines and dots. */
export function pictureSvg(code: string): string {
  const parts: string[] = [`<rect width="${PICTURE_WIDTH}" height="${PICTURE_HEIGHT}" fill="#f3f6fa"/>`];
  for (let i = 0; i < 4; i++) {
    const c = COLORS[randomInt(COLORS.length)]!;
    parts.push(
      `<line x1="${randomInt(PICTURE_WIDTH)}" y1="${randomInt(PICTURE_HEIGHT)}" x2="${randomInt(PICTURE_WIDTH)}" y2="${randomInt(PICTURE_HEIGHT)}" stroke="${c}" stroke-opacity="0.45" stroke-width="1"/>`,
    );
  }
  const cell = 3.6;
  [...code].forEach((ch, i) => {
    const rows = GLYPHS[ch] ?? [];
    const x0 = 10 + i * 27 + randomInt(5);
    const y0 = 5 + randomInt(6);
    const color = COLORS[randomInt(COLORS.length)]!;
    const rot = randomInt(31) - 15;
    const rects: string[] = [];
    rows.forEach((bits, r) => {
      for (let b = 0; b < 5; b++) {
        if ((bits >> (4 - b)) & 1) rects.push(`<rect x="${(b * cell).toFixed(1)}" y="${(r * cell * 0.9).toFixed(1)}" width="${cell}" height="${(cell * 0.9).toFixed(1)}"/>`);
      }
    });
    parts.push(`<g fill="${color}" transform="translate(${x0} ${y0}) rotate(${rot} 9 12)">${rects.join('')}</g>`);
  });
  for (let i = 0; i < 30; i++) {
    parts.push(`<circle cx="${randomInt(PICTURE_WIDTH)}" cy="${randomInt(PICTURE_HEIGHT)}" r="0.8" fill="${COLORS[randomInt(COLORS.length)]!}"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE_WIDTH}" height="${PICTURE_HEIGHT}" viewBox="0 0 ${PICTURE_WIDTH} ${PICTURE_HEIGHT}">${parts.join('')}</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Test helper: reads the glyphs back from a picture (proves the drawing is the code, for tests only). */
export function glyphOf(rows: readonly number[]): string | undefined {
  return Object.entries(GLYPHS).find(([, g]) => g.every((v, i) => v === rows[i]))?.[0];
}

/**
 * Reads a picture code back from its image (tests only: the integration and browser flows play
 * the person who reads the picture).
 */
export function readPictureCode(img: string): string {
  const svg = Buffer.from(img.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString();
  const groups = [...svg.matchAll(/<g fill="[^"]+" transform="[^"]+">(.*?)<\/g>/g)].map((m) => m[1]!);
  return groups
    .map((g) => {
      const rows = [0, 0, 0, 0, 0, 0, 0];
      for (const r of g.matchAll(/<rect x="([\d.]+)" y="([\d.]+)"/g)) {
        const col = Math.round(Number(r[1]) / 3.6);
        const row = Math.round(Number(r[2]) / (3.6 * 0.9));
        rows[row]! |= 1 << (4 - col);
      }
      return glyphOf(rows) ?? '?';
    })
    .join('');
}
