/**
 * Issue 13, the firmware library pages: sunmaker (manufacturer) opens adminNew setting/firmware,
 * uploads a small image signed with the demo signing key, sees it in the list as signed by that
 * key, makes it the default firmware of SW-DL4G, and a delete of that default is refused with
 * the translated message (err 8 `special.firmwareIsDefault`); the row stays.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFirmwareSigningKey, signFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import { DEMO } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

describe('firmware library pages', () => {
  it('uploads a signed image, makes it a default, and a delete of that default is refused', async () => {
    const image = randomBytes(4096);
    const sha = createHash('sha256').update(image).digest('hex');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-')), 'e2e-fw-9.9.9.bin');
    writeFileSync(file, image);
    const key = demoFirmwareSigningKey();
    const signature = signFirmwareDigest(key.privateKey, sha);

    const page = await h().newPage();
    await h().signIn(page, DEMO.sunmaker.usr, DEMO.sunmaker.pwd, '/adminNew/setting/firmware');
    await page.getByTestId('fw-manager-page').waitFor();
    // the manufacturer sees its signing keys
    await page.getByTestId('fw-key-row').first().waitFor();

    await page.getByTestId('fw-upload').click();
    const form = page.getByTestId('fw-upload-form');
    await form.locator('input[type=file]').setInputFiles(file);
    await page.getByTestId('fw-form-name').fill('E2E image');
    await page.getByTestId('fw-form-version').fill('9.9.9');
    await page.getByTestId('fw-form-signature').fill(signature);
    await page.getByTestId('fw-upload-ok').click();
    await form.waitFor({ state: 'detached' });

    const row = page.getByTestId('fw-row').filter({ hasText: 'E2E image' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => row.getByTestId('fw-signed').getAttribute('data-signed')).toBe('1');
    expect(await row.innerText()).toContain(key.fingerprint);
    expect(await row.innerText()).toContain('9.9.9');

    // the default of SW-DL4G becomes the new image
    const dl4g = page.locator('[data-testid=fw-default-row][data-type="SW-DL4G"]');
    await dl4g.locator('.ant-select').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'E2E image 9.9.9' })
      .click();
    await expect.poll(() => dl4g.locator('.ant-select').innerText(), { timeout: 15_000 }).toContain('E2E image 9.9.9');
    await expect.poll(() => row.getByTestId('fw-default-for').count(), { timeout: 15_000 }).toBe(1);

    // deleting it is refused with the translated message; the row stays
    await row.getByTestId('fw-delete').click();
    await page.getByTestId('fw-delete-ok').click();
    await page
      .locator('.ant-message')
      .getByText('The firmware is a default firmware: clear the default first')
      .waitFor();
    expect(await row.count()).toBe(1);
    await page.close();
  }, 120_000);
});
