import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * A film as a `.filamu` file between phones (issue 19/22), as a person moves it: "Keep a copy" on one phone's My
 * Downloads, "Open a film file" on another's.
 */

/** The `.filamu` copy of a film this page's phone holds, through "Keep a copy" on My Downloads, written to `folder`. */
export async function keepCopy(page: Page, title: string, folder: string): Promise<{ copy: Buffer; path: string }> {
  await page.goto('/downloads');
  // No save picker: the browser's download takes the copy, which the test can read.
  await page.evaluate(() =>
    Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined }),
  );
  await page
    .getByRole('article', { name: title })
    .getByRole('button', { name: `Keep a copy ${title}` })
    .click();
  const keep = page.getByRole('dialog', { name: 'Keep a copy?' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    keep.getByRole('button', { name: 'Keep a copy' }).click(),
  ]);
  const copy = readFileSync(await download.path());
  const path = join(folder, `${title}.filamu`);
  writeFileSync(path, copy);
  return { copy, path };
}

/** "Open a film file" with `path`, as the file picker hands it over. */
export async function openFilmFile(page: Page, path: string): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Open a film file' }).click(),
  ]);
  await chooser.setFiles(path);
}
