/**
 * Every demo role signs in through the real entry page (slider puzzle included) and lands in its
 * area (spec §2): 0/5 → general, 1/2/3 → admin, 15 → operator area (new edition only).
 */
import { describe, expect, it } from 'vitest';
import { areaMenu, DEMO, landingPattern, login, pathOf } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

const ROLES = ['operator', 'sunmaker', 'dealer_north', 'group_east', 'owner_anna', 'viewer_cara'] as const;

describe('login lands in the role area', () => {
  for (const name of ROLES) {
    const account = DEMO[name];
    it(`${name} (role ${account.role})`, async () => {
      const page = await h().newPage();
      await page.goto('/entry');
      await login(page, account.usr, account.pwd);
      await page.waitForURL(landingPattern(account.role));
      await areaMenu(page).waitFor({ state: 'visible' });
      expect(pathOf(page)).toMatch(landingPattern(account.role));
      await page.waitForLoadState('networkidle');
      await h().screenshot(page, `landing-${name}`);
      await page.context().close();
    });
  }

  it('sub-administrator north_ops on the new edition lands on /adminNew/device', async () => {
    const page = await h().newPage();
    // Visiting /adminNew sets the new-edition flag even when the guard then sends us to /entry.
    await page.goto('/adminNew');
    await page.waitForURL(/\/entry/);
    await page.goto('/entry');
    await login(page, DEMO.north_ops.usr, DEMO.north_ops.pwd);
    await page.waitForURL(/\/adminNew\/device(?:[/?#]|$)/);
    await areaMenu(page).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    await h().screenshot(page, 'landing-north_ops');
    await page.context().close();
  });
});
