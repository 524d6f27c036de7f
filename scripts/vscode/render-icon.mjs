// Renders images/icon.svg to images/icon.png (128x128) with headless Chromium.
// VS Code's marketplace wants a PNG icon; the SVG is the source. Usage: node scripts/vscode/render-icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { paths } from './paths.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './code-server.mjs';

const svg = readFileSync(join(paths.root, 'images', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
await page.locator('svg').screenshot({ path: join(paths.root, 'images', 'icon.png'), omitBackground: true });
await browser.close();
console.log('images/icon.png');
