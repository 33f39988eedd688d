// Renders the extension icon (media/icon.png, 128x128, as the Marketplace asks) from the activity-bar SVG
// (media/swarmboard.svg): the same drawing, white on a rounded dark-blue square, photographed by headless
// Chromium through playwright-core. Run it after changing the SVG: `node scripts/makeIcon.mjs`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const svg = readFileSync(path.join(root, "media", "swarmboard.svg"), "utf8");
const out = path.join(root, "media", "icon.png");
const executablePath = process.env.SWARMBOARD_CHROMIUM ?? "/usr/bin/chromium";

const page = `<!doctype html><html><body style="margin:0;background:transparent">
<div id="icon" style="width:128px;height:128px;border-radius:24px;background:linear-gradient(135deg,#1f4e99,#0b2a5b);
display:flex;align-items:center;justify-content:center;color:#ffffff">
${svg.replace("<svg ", '<svg style="width:96px;height:96px" ')}
</div></body></html>`;

const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const tab = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await tab.setContent(page);
  await tab.locator("#icon").screenshot({ path: out, omitBackground: true });
  console.log(`wrote ${path.relative(root, out)}`);
} finally {
  await browser.close();
}
