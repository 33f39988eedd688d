// The runner's hands on the Swarmboard panel's page for the keyboard and narrow-panel tests: the real keyboard
// (Playwright's, into the focused webview frame) and the real window size, never synthetic DOM events, which move
// no focus. The page is found as the frame that holds the findings feed. Writes `<name>.drive.json` for the suite.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Frame, Page } from "playwright-core";
import type { PanelDriveRequest, PanelDriveResult, TabStop } from "./suite/automationMarkers";

const startSize = { width: 1400, height: 860 };

async function panelFrame(page: Page): Promise<Frame> {
  for (const frame of page.frames()) {
    if (
      (await frame
        .locator("#findings")
        .count()
        .catch(() => 0)) > 0
    )
      return frame;
  }
  throw new Error("no frame holds the Swarmboard panel's page (#findings)");
}

/** Where the focus is in the page, as a person would see it. */
function focusNow(frame: Frame): Promise<TabStop> {
  return frame.evaluate((): TabStop => {
    const el = document.activeElement as HTMLElement | null;
    if (!document.hasFocus() || el === null || el === document.body) return { inPage: false };
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const inView = rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth;
    // The theme's focus colour, resolved as the page resolves it (the browser's own ring does not count).
    const probe = document.createElement("span");
    probe.style.color = "var(--vscode-focusBorder)";
    document.body.append(probe);
    const focusColour = getComputedStyle(probe).color;
    probe.remove();
    return {
      inPage: true,
      tag: el.tagName.toLowerCase(),
      id: el.dataset.id ?? el.id,
      text: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 60),
      visible: el.checkVisibility() && rect.width > 0 && rect.height > 0 && inView,
      outlined:
        style.outlineStyle === "solid" && parseFloat(style.outlineWidth) > 0 && style.outlineColor === focusColour,
    };
  });
}

async function tabThrough(page: Page, tabs: number, stopAt: string | undefined): Promise<PanelDriveResult> {
  const frame = await panelFrame(page);
  await frame.locator("h1").click();
  const stops: TabStop[] = [];
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press("Tab");
    const stop = await focusNow(frame);
    stops.push(stop);
    if (!stop.inPage) break;
    if (stopAt !== undefined && stop.id === stopAt && stop.tag === "li") break;
  }
  return { ok: true, stops };
}

function measure(frame: Frame): Promise<NonNullable<PanelDriveResult["layout"]>> {
  return frame.evaluate(() => {
    const root = document.documentElement;
    // What sticks out to the right, to say why when there is a horizontal scroll.
    const overflowing = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5 && e.checkVisibility())
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`);
    const cut = [...document.querySelectorAll<HTMLElement>(".lane-head > *")]
      .filter((e) => e.scrollWidth > e.clientWidth + 0.5)
      .map((e) => e.textContent ?? "");
    return { innerWidth, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, overflowing, cut };
  });
}

async function narrow(page: Page, width: number): Promise<PanelDriveResult> {
  // The page's width follows the window's: take the rest of the workbench (activity bar, borders) off the window.
  for (let attempt = 0; attempt < 4; attempt++) {
    const frame = await panelFrame(page);
    const now = await measure(frame);
    if (now.innerWidth === width) return { ok: true, layout: now };
    const size = page.viewportSize() ?? startSize;
    await page.setViewportSize({ width: size.width - (now.innerWidth - width), height: size.height });
    await page.waitForTimeout(700);
  }
  const layout = await measure(await panelFrame(page));
  return layout.innerWidth === width
    ? { ok: true, layout }
    : { ok: false, error: `the panel's page stayed ${layout.innerWidth} px wide, not ${width}`, layout };
}

export async function drivePanel(page: Page, artifacts: string, request: PanelDriveRequest): Promise<void> {
  if (!/^[a-z0-9-]+$/.test(request.name)) {
    process.stderr.write(`host tests: refused a panel drive name "${request.name}" (use a-z, 0-9, -)\n`);
    return;
  }
  let result: PanelDriveResult;
  try {
    if (request.kind === "tab") result = await tabThrough(page, request.tabs, request.stopAt);
    else if (request.kind === "press") {
      await page.keyboard.press(request.key);
      result = { ok: true };
    } else if (request.kind === "narrow") result = await narrow(page, request.width);
    else if (request.kind === "measure") result = { ok: true, layout: await measure(await panelFrame(page)) };
    else {
      await page.setViewportSize(startSize);
      result = { ok: true };
    }
  } catch (error) {
    result = { ok: false, error: (error as Error).message };
  }
  writeFileSync(path.join(artifacts, `${request.name}.drive.json`), JSON.stringify(result));
}
