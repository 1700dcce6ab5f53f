// The channel's menu and muting as a person does them in a browser test: from the conversation's header, whose
// menu holds the description, mute, manage and members.
import type { Page } from 'playwright-core';

/** Opens the open channel's menu (from its header), unless it is open already. */
export async function openChannelMenu(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Channel menu' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.getByRole('region', { name: 'Channel details' }).waitFor();
}

/** Opens Strategy Studio from the channel list and mutes it for 8 hours from the channel's menu. */
export async function muteStrategyFromHeader(page: Page): Promise<void> {
  await page.getByRole('link', { name: /Strategy Studio/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Strategy Studio' }).waitFor();
  await openChannelMenu(page);
  await page.getByRole('button', { name: 'Mute', exact: true }).click();
  await page.getByRole('button', { name: 'Mute for 8 hours' }).click();
  await page.getByRole('button', { name: /^Muted until / }).waitFor();
}
