// Screenshots of the harness page (docs/workflow.md "Diagram components"): start `npx vite --port 5197` in apps/web,
// then `node harness/shoot.mjs [outDir]`. Uses the system Chromium through playwright-core.
import { chromium } from 'playwright-core';

const base = process.env.HARNESS_URL ?? 'http://localhost:5197/harness/flow.html';
const out = process.argv[2] ?? '/tmp/flow-shots';
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const errors = [];
/** Selects a diagram element by a click on it, until the panel shows `entry` (a click can land mid-render). */
async function select(page, id, entry) {
  for (let i = 0; ; i++) {
    await page.dispatchEvent(`.atrium-flow-modeler [data-element-id="${id}"] .djs-hit`, 'click');
    try {
      return await page.waitForSelector(`.atrium-flow-panel [data-entry-id="${entry}"]`, { timeout: 3000 });
    } catch (e) {
      if (i === 5) throw e;
    }
  }
}
for (const lang of ['zh', 'en']) {
  for (const width of [1440, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    page.on('pageerror', (e) => errors.push(`${lang} ${width}: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(`${lang} ${width}: ${m.text()}`));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${lang} ${width}: ${r.status()} ${r.url()}`));
    await page.goto(`${base}?lang=${lang}`);
    await page.waitForSelector('.atrium-flow-viewer .djs-element.atrium-flow-current', { timeout: 60_000 });
    await select(page, 'manager', 'atriumAssignee');
    await page.screenshot({ path: `${out}/${lang}-${width}.png`, fullPage: true });
    await select(page, 'f3', 'atriumCondition');
    await page.screenshot({ path: `${out}/${lang}-${width}-flow.png`, fullPage: true });
    const titles = await page.$$eval('.djs-palette .entry', (els) =>
      els.map((e) => e.getAttribute('title') ?? e.getAttribute('aria-label')),
    );
    console.log(lang, width, titles.slice(0, 4).join(' | '));
    await page.close();
  }
}
// Editing: the panel writes what Atrium reads, and a new diagram starts from a start event.
{
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await page.goto(`${base}?lang=zh`);
  await page.waitForSelector('.atrium-flow-modeler [data-element-id="manager"]');
  await select(page, 'manager', 'atriumCandidateGroups');
  const ok = (what, cond) => console.log(cond ? 'ok  ' : 'FAIL', what) || cond || errors.push(what);
  ok('no change reported on load', (await page.textContent('#changes')) === '0');
  await page.fill('[data-entry-id="atriumCandidateGroups"] input', 'hr, boss，hr');
  await page.waitForTimeout(800);
  await select(page, 'f3', 'atriumCondition');
  await page.fill('[data-entry-id="atriumCondition"] input', 'days > 3');
  await page.waitForTimeout(800);
  await page.click('.atrium-flow-toolbar .ant-btn-primary');
  const saved = await page.waitForFunction(() => document.getElementById('saved')?.textContent || null);
  const xml = await saved.jsonValue();
  ok('changes reported', Number(await page.textContent('#changes')) >= 2);
  ok('candidate groups saved', xml.includes('camunda:candidateGroups="hr,boss"'));
  ok('condition saved', xml.includes('${days &gt; 3}') || xml.includes('${days > 3}'));
  // A language switch makes a new modeler in English that carries the edited diagram over.
  await page.click('#switch');
  await page.waitForSelector('.djs-palette [aria-label="Create start event"]');
  await select(page, 'manager', 'atriumCandidateGroups');
  ok(
    'switched to en, edit kept',
    (await page.inputValue('[data-entry-id="atriumCandidateGroups"] input')) === 'hr,boss',
  );
  ok(
    'panel in en',
    (await page.textContent('[data-group-id="group-atrium"] .bio-properties-panel-group-header-title'))?.trim() ===
      'Workflow',
  );
  await page.goto(`${base}?lang=zh&blank=1`);
  await page.waitForSelector('.atrium-flow-modeler [data-element-id="StartEvent_1"]');
  ok('new diagram has its start event', (await page.textContent('.atrium-flow-modeler .djs-label')) !== null);
  await page.screenshot({ path: `${out}/zh-1440-blank.png` });
  await page.close();
}
await browser.close();
console.log(errors.length ? errors.join('\n') : 'no page errors');
