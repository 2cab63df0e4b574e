/**
 * Procedural background of the slider puzzle: a sky gradient, a sun, hills and rows of solar
 * panels, drawn on a canvas with a seeded random source. No external image is loaded.
 */
import { mulberry32 } from '@sunwatch/protocol';
import { PUZZLE_HEIGHT, PUZZLE_WIDTH } from './puzzle-logic';


const SKIES: ReadonlyArray<readonly [string, string, string]> = [
  ['#1e3c72', '#4f8fd8', '#f6d365'],
  ['#0f2027', '#2c5364', '#f8b26a'],
  ['#355c7d', '#6c5b7b', '#f67280'],
  ['#2b5876', '#4e4376', '#fbc687'],
  ['#11998e', '#38ef7d', '#e9f5a1'],
];

/** CSS fallback when no 2D canvas is available (jsdom, very old browsers). */
export const FALLBACK_BACKGROUND = 'linear-gradient(180deg, #1e3c72 0%, #4f8fd8 55%, #2e7d32 100%)';

/** Draws the scene and returns it as a data URL, or '' when the canvas has no 2D context. */
export function drawPuzzleBackground(seed: number, doc: Document = document): string {
  const canvas = doc.createElement('canvas');
  canvas.width = PUZZLE_WIDTH;
  canvas.height = PUZZLE_HEIGHT;
  let ctx: CanvasRenderingContext2D | null = null;
  try {
    ctx = canvas.getContext('2d');
  } catch {
    ctx = null;
  }
  if (!ctx) return '';
  const rnd = mulberry32(seed);
  const W = PUZZLE_WIDTH;
  const H = PUZZLE_HEIGHT;

  // sky
  const sky = SKIES[Math.floor(rnd() * SKIES.length)] ?? SKIES[0]!;
  const g = ctx.createLinearGradient(0, 0, 0, H);
  g.addColorStop(0, sky[0]);
  g.addColorStop(0.6, sky[1]);
  g.addColorStop(1, sky[2]);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);

  // sun with a glow
  const sx = 30 + rnd() * (W - 60);
  const sy = 20 + rnd() * 40;
  const glow = ctx.createRadialGradient(sx, sy, 4, sx, sy, 60);
  glow.addColorStop(0, 'rgba(255, 244, 180, 0.95)');
  glow.addColorStop(0.35, 'rgba(255, 214, 102, 0.6)');
  glow.addColorStop(1, 'rgba(255, 214, 102, 0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#fff3b0';
  ctx.beginPath();
  ctx.arc(sx, sy, 14 + rnd() * 6, 0, Math.PI * 2);
  ctx.fill();

  // a few soft clouds
  ctx.fillStyle = 'rgba(255, 255, 255, 0.35)';
  for (let i = 0; i < 4; i++) {
    const cx = rnd() * W;
    const cy = 15 + rnd() * 50;
    for (let j = 0; j < 3; j++) {
      ctx.beginPath();
      ctx.ellipse(cx + j * 14, cy + (j % 2) * 4, 16 + rnd() * 10, 7 + rnd() * 4, 0, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  // two layers of hills
  const hills = [
    { base: H * 0.62, amp: 18, color: 'rgba(46, 125, 50, 0.75)' },
    { base: H * 0.74, amp: 12, color: '#2e7d32' },
  ];
  for (const hill of hills) {
    const phase = rnd() * Math.PI * 2;
    const freq = 0.012 + rnd() * 0.012;
    ctx.fillStyle = hill.color;
    ctx.beginPath();
    ctx.moveTo(0, H);
    for (let x = 0; x <= W; x += 8) {
      ctx.lineTo(x, hill.base + Math.sin(x * freq + phase) * hill.amp + Math.sin(x * freq * 2.7) * 4);
    }
    ctx.lineTo(W, H);
    ctx.closePath();
    ctx.fill();
  }

  // rows of solar panels (parallelograms with cell lines)
  const rows = 2 + Math.floor(rnd() * 2);
  for (let r = 0; r < rows; r++) {
    const y = H * 0.8 + r * 14;
    const ph = 10 + r * 2;
    const pw = 26 + r * 4;
    for (let x = -10 + rnd() * 20; x < W; x += pw + 6) {
      ctx.fillStyle = '#1a237e';
      ctx.beginPath();
      ctx.moveTo(x + 6, y);
      ctx.lineTo(x + pw + 6, y);
      ctx.lineTo(x + pw, y + ph);
      ctx.lineTo(x, y + ph);
      ctx.closePath();
      ctx.fill();
      ctx.strokeStyle = 'rgba(144, 202, 249, 0.7)';
      ctx.lineWidth = 0.8;
      ctx.stroke();
      ctx.beginPath();
      for (let c = 1; c < 4; c++) {
        const fx = x + (pw * c) / 4;
        ctx.moveTo(fx + 6, y);
        ctx.lineTo(fx, y + ph);
      }
      ctx.moveTo(x + 3, y + ph / 2);
      ctx.lineTo(x + pw + 3, y + ph / 2);
      ctx.stroke();
    }
  }

  // scattered geometric accents so no two images look alike
  for (let i = 0; i < 6; i++) {
    ctx.fillStyle = `hsla(${Math.floor(rnd() * 360)}, 70%, 70%, 0.25)`;
    ctx.beginPath();
    const x = rnd() * W;
    const y = rnd() * H * 0.6;
    const s = 6 + rnd() * 14;
    if (i % 2 === 0) ctx.arc(x, y, s, 0, Math.PI * 2);
    else {
      ctx.moveTo(x, y - s);
      ctx.lineTo(x + s, y + s);
      ctx.lineTo(x - s, y + s);
      ctx.closePath();
    }
    ctx.fill();
  }

  try {
    return canvas.toDataURL('image/png');
  } catch {
    return '';
  }
}
