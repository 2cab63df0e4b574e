/**
 * Issue 14, rawDataParsing: the operator signs in, opens the protocol tools' raw-data parsing page,
 * picks devcode 2341, pastes three register words as copied from a datalogger log (from register
 * 256: 50.0 Hz, "Mains OK", 230.0 V) and sees them decoded with their titles and units, as ingestion
 * would store them. The three protocol-tool pages keep to a 360 px phone without sideways scrolling.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();
const BASE = '/adminNewStatr/home';

async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  const o = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(o.scroll, `${what} scrolls sideways at ${o.inner} px`).toBeLessThanOrEqual(o.inner);
}

describe('operator raw-data parsing', () => {
  it('decodes a pasted frame with titles and units, phone-width friendly', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, `${BASE}/rawDataParsing`);
    await page.getByTestId('raw-data-parsing').waitFor();

    await page
      .locator('.ant-form-item')
      .filter({ has: page.locator('#raw-devcode') })
      .locator('.ant-select')
      .click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '2341' }).click();
    await page.locator('#raw-start').fill('256');
    // The page keeps its form through the full-page screenshot below: that capture briefly shrinks
    // the viewport, and the settings layout used to re-mount the page on the phone/desktop switch.
    const parse = async (frame: string) => {
      await page.locator('#raw-frame').fill(frame);
      await page.getByTestId('raw-parse').click();
    };
    await parse('01F4 0001 08FC');

    const result = page.getByTestId('raw-result');
    await result.waitFor({ timeout: 15_000 });
    const values = await result.getByTestId('decoded-value').allInnerTexts();
    expect(values.map((v) => v.trim())).toEqual(['50.0 Hz', 'Mains OK', '230.0 V']);
    const text = await result.innerText();
    expect(text).toContain('AC Input Frequency');
    expect(text).toContain('AC Input Voltage');
    expect(text).toContain('Ingestion stores it');
    await h().screenshot(page, 'operator-rawdata');

    // A frame ingestion refuses is shown refused, with the reason.
    await parse('01F4 000');
    // the result goes while the new parse runs, then shows the new answer
    await expect
      .poll(async () => ((await result.count()) ? result.innerText() : ''), { timeout: 20_000 })
      .toContain('Ingestion refuses it: invalid format');

    // Phone width: the result, then the other two pages of this slice.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.waitForTimeout(300);
    await noSidewaysScroll(page, 'rawDataParsing');
    await page.goto(h().url(`${BASE}/protocolInstruction`));
    await page.getByTestId('definition-2341').waitFor({ timeout: 20_000 });
    await noSidewaysScroll(page, 'protocolInstruction');
    await page.getByTestId('definition-2341').click();
    await page.getByTestId('definition-detail').waitFor();
    await expect
      .poll(() => page.getByTestId('definition-detail').innerText(), { timeout: 15_000 })
      .toContain('AC Input Voltage');
    await noSidewaysScroll(page, 'protocolInstruction detail');
    await page.goto(h().url(`${BASE}/deviceFunction`));
    await page.getByTestId('device-function').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('device-function').innerText(), { timeout: 15_000 }).toContain('2341');
    await noSidewaysScroll(page, 'deviceFunction');
    await page.close();
  }, 120_000);
});
