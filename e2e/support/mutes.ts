// Muting as a person does it in a browser test: from the conversation's header.
import type { Page } from 'playwright-core';

/** Opens Strategy Studio from the channel list and mutes it for 8 hours from the conversation's header. */
export async function muteStrategyFromHeader(page: Page): Promise<void> {
  await page.getByRole('link', { name: /Strategy Studio/ }).click();
  await page.getByRole('heading', { level: 2, name: 'Strategy Studio' }).waitFor();
  await page.getByRole('button', { name: 'Mute', exact: true }).click();
  await page.getByRole('button', { name: 'Mute for 8 hours' }).click();
  await page.getByRole('button', { name: /^Muted until / }).waitFor();
}
