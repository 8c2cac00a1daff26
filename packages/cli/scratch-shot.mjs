import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
await page.goto(process.argv[2]);
await page.waitForTimeout(Number(process.argv[4] ?? 3000));
await page.screenshot({ path: process.argv[3], fullPage: true });
await browser.close();
