/**
 * Page helpers for the entry page (/entry): the login form, the slider puzzle and the
 * landing checks shared by the flow specs.
 */
import type { Locator, Page } from 'playwright-core';
import { mulberry32 } from '@sunwatch/protocol';

/** Demo tenant tree of docs/contracts.md. */
export const DEMO = {
  operator: { usr: 'operator', pwd: 'Operator_2026', role: 15 },
  sunmaker: { usr: 'sunmaker', pwd: 'Maker_2026', role: 1 },
  dealer_north: { usr: 'dealer_north', pwd: 'Dealer_2026', role: 2 },
  dealer_south: { usr: 'dealer_south', pwd: 'Dealer_2026', role: 2 },
  north_ops: { usr: 'north_ops', pwd: 'SubAdmin_2026', role: 2 },
  group_east: { usr: 'group_east', pwd: 'Group_2026', role: 3 },
  owner_anna: { usr: 'owner_anna', pwd: 'Owner_2026', role: 0 },
  owner_ben: { usr: 'owner_ben', pwd: 'Owner_2026', role: 0 },
  viewer_cara: { usr: 'viewer_cara', pwd: 'Viewer_2026', role: 5 },
} as const;
export type DemoAccount = (typeof DEMO)[keyof typeof DEMO];

/** Cookie holding the remember-me token (apps/web/src/app/session.ts `COOKIE.remember`). */
export const REMEMBER_COOKIE = 'swRem';

/** Where each role lands after login (spec §2). */
export function landingPattern(role: number): RegExp {
  if (role === 15) return /\/adminNewStatr\/home(?:[/?#]|$)/;
  if (role === 1 || role === 2 || role === 3) return /\/admin(?:New)?\/home(?:[/?#]|$)/;
  return /\/general(?:New)?\/home(?:[/?#]|$)/;
}

/** Pathname (plus query) of the page's current URL. */
export function pathOf(page: Page): string {
  const u = new URL(page.url());
  return u.pathname + u.search;
}

export function usernameField(page: Page): Locator {
  return page.getByTestId('login-username');
}

export function passwordField(page: Page): Locator {
  return page.getByTestId('login-password');
}

export function loginButton(page: Page): Locator {
  return page.getByTestId('login-submit');
}

export function rememberCheckbox(page: Page): Locator {
  return page.getByTestId('login-remember');
}

/** The error message shown under the login form. */
export function loginError(page: Page): Locator {
  return page.getByTestId('login-error');
}

/** The area's navigation menu (the visible layout element every area has). */
export function areaMenu(page: Page): Locator {
  return page.getByTestId('area-menu');
}

/** The language select in the header of every area. */
export function headerLanguage(page: Page): Locator {
  return page.getByTestId('header-language');
}

// --- slider puzzle ----------------------------------------------------------------------------

/** Layout size of the puzzle track and piece (apps/web/src/features/entry/puzzle-logic.ts). */
const PUZZLE_WIDTH = 352;
const PIECE_SIZE = 64;


export interface TrailStep {
  dx: number;
  dy: number;
  delayMs: number;
}

/**
 * A human-like drag trail to `distance` px: ease-out progress with uneven step sizes, a slight
 * vertical wobble, irregular delays, a small overshoot and a correction back onto the target.
 */
export function humanTrail(distance: number, random: () => number): TrailStep[] {
  const steps: TrailStep[] = [];
  const count = 14 + Math.floor(random() * 10);
  const overshoot = 2 + random() * 3;
  const goal = distance + overshoot;
  let wobble = 0;
  for (let i = 1; i <= count; i++) {
    const p = i / count;
    // ease-out cubic plus jitter: fast at first, slow near the gap
    const eased = 1 - Math.pow(1 - p, 3);
    const jitter = i < count ? (random() - 0.5) * 3 : 0;
    wobble += (random() - 0.5) * 1.2;
    wobble = Math.max(-3, Math.min(3, wobble));
    steps.push({ dx: goal * eased + jitter, dy: wobble, delayMs: 8 + Math.floor(random() * 28) + (p > 0.8 ? 20 : 0) });
  }
  // settle back onto the gap in two uneven corrections
  steps.push({ dx: distance + overshoot / 3, dy: wobble / 2, delayMs: 60 + Math.floor(random() * 60) });
  steps.push({ dx: distance, dy: 0, delayMs: 90 + Math.floor(random() * 80) });
  return steps;
}

export function puzzleTrack(page: Page): Locator {
  return page.getByTestId('puzzle-track');
}

export function puzzleHandle(page: Page): Locator {
  return page.getByTestId('puzzle-handle');
}

/**
 * The handle's box once the puzzle dialog has finished animating in (a drag that starts during
 * the zoom-in animation is lost): same position twice in a row, at its full 64 px width.
 */
export async function stableHandleBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const handle = puzzleHandle(page);
  await handle.waitFor({ state: 'visible' });
  const track = puzzleTrack(page);
  let prev = await handle.boundingBox();
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(60);
    const next = await handle.boundingBox();
    const trackBox = await track.boundingBox();
    // the track may be zoomed on narrow screens; the handle keeps its share of the track width
    const fullWidth = trackBox ? (trackBox.width * PIECE_SIZE) / PUZZLE_WIDTH : PIECE_SIZE;
    if (
      prev &&
      next &&
      Math.abs(next.x - prev.x) < 0.01 &&
      Math.abs(next.y - prev.y) < 0.01 &&
      Math.abs(next.width - fullWidth) < 0.05
    ) {
      return next;
    }
    prev = next;
  }
  throw new Error(`puzzle handle did not settle (last box ${JSON.stringify(prev)})`);
}

/**
 * Reads the gap position (`data-gap-x` on the track: the piece's left offset at which it fills
 * the gap) and drags the handle there with `page.mouse` along a non-uniform trail.
 */
export async function solvePuzzle(page: Page, seed = Math.floor(Math.random() * 2 ** 31)): Promise<void> {
  const track = puzzleTrack(page);
  await track.waitFor({ state: 'visible' });
  const raw = await track.getAttribute('data-gap-x');
  const gapX = Number(raw);
  if (raw === null || !Number.isFinite(gapX)) throw new Error(`puzzle track has no numeric data-gap-x (got ${raw})`);
  const box = await stableHandleBox(page);
  const trackBox = await track.boundingBox();
  // data-gap-x is in layout px; the screen distance scales with the track's zoom
  const scale = trackBox ? trackBox.width / PUZZLE_WIDTH : 1;
  // seeded, so a failing trail can be replayed from the logged seed
  const random = mulberry32(seed);
  const x0 = box.x + box.width / 2;
  const y0 = box.y + box.height / 2;
  await page.mouse.move(x0 - 6, y0 + 3);
  await page.mouse.move(x0, y0, { steps: 2 });
  await page.mouse.down();
  await page.waitForTimeout(80 + Math.floor(random() * 60));
  for (const step of humanTrail(gapX * scale, random)) {
    await page.mouse.move(x0 + step.dx, y0 + step.dy);
    await page.waitForTimeout(step.delayMs);
  }
  await page.mouse.up();
}

/** The puzzle's verdict after a drop: 'success', 'fail', or 'gone' when the dialog closed. */
export async function puzzleVerdict(page: Page, timeout = 5_000): Promise<string> {
  const handle = await page.waitForFunction(
    () => {
      const track = document.querySelector('[data-testid=puzzle-track]');
      if (!track) return 'gone';
      const status = track.getAttribute('data-status');
      return status === 'success' || status === 'fail' ? status : null;
    },
    undefined,
    { timeout },
  );
  return (await handle.jsonValue()) as string;
}

// --- login ------------------------------------------------------------------------------------

export interface LoginOptions {
  remember?: boolean;
  /** Navigate to /entry first (default true when the page is not on /entry already). */
  goto?: boolean;
  /** Wait until the browser has left /entry (default true). */
  expectSuccess?: boolean;
}

/**
 * Signs in through the real entry page: fills the form, ticks "remember me" if asked,
 * submits, solves the slider puzzle, and (by default) waits to leave /entry.
 */
export async function login(page: Page, usr: string, pwd: string, options: LoginOptions = {}): Promise<void> {
  const onEntry = page.url().includes('/entry');
  if (options.goto ?? !onEntry) await page.goto('/entry');
  await usernameField(page).fill(usr);
  await passwordField(page).fill(pwd);
  const remember = rememberCheckbox(page);
  if (options.remember !== undefined && (await remember.count()) > 0) {
    await remember.setChecked(options.remember);
  }
  await loginButton(page).click();
  // A failed drop shows "fail" and resets after 1 s with a new gap; try a few trails.
  for (let attempt = 1; ; attempt++) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    await solvePuzzle(page, seed);
    const status = await puzzleVerdict(page);
    if (status === 'success' || status === 'gone') break;
    if (attempt >= 3)
      throw new Error(`slider puzzle not accepted after ${attempt} trails (last: ${status}, seed ${seed})`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=puzzle-track]')?.getAttribute('data-status') === 'idle',
      undefined,
      { timeout: 5_000 },
    );
  }
  if (options.expectSuccess ?? true) {
    await page.waitForURL((u) => !u.pathname.startsWith('/entry'), { timeout: 20_000 });
  }
}
