// Opens pages in headless Chromium and checks what a reader would see:
// every image loads (a board that fails to load has no natural size), the
// page logs no console error and no request fails. Saves a screenshot of
// each page. A Markdown page (a label doc) is shown as its images, the way
// GitHub renders them: each ![alt](src) becomes an <img> in an HTML page
// beside the Markdown file.
//
//   node check_pages.js SCREENSHOT_DIR PAGE...     (PAGE: .html or .md)
const fs = require('fs');
const path = require('path');
const chromium = require('@sparticuz/chromium');
const puppeteer = require('puppeteer-core');

function htmlFor(markdownPath) {
  const text = fs.readFileSync(markdownPath, 'utf8');
  const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const body = text.split('\n').map((line) => {
    const image = line.match(/!\[([^\]]*)\]\(([^)]+)\)/);
    const heading = line.match(/^(#{1,6}) (.*)$/);
    if (image) return `<p><img alt="${escape(image[1])}" src="${escape(image[2])}"></p>`;
    if (heading) return `<h${heading[1].length}>${escape(heading[2])}</h${heading[1].length}>`;
    return `<p>${escape(line)}</p>`;
  });
  const out = markdownPath.replace(/\.md$/, '.check.html');
  fs.writeFileSync(out, `<!doctype html><html><head><meta charset="utf-8"><title>${escape(path.basename(markdownPath))}</title></head><body>${body.join('\n')}</body></html>`);
  return out;
}

(async () => {
  const [shots, ...pages] = process.argv.slice(2);
  fs.mkdirSync(shots, { recursive: true });
  const browser = await puppeteer.launch({ args: chromium.args, executablePath: await chromium.executablePath(), headless: true });
  let failures = 0;
  for (const page of pages) {
    const file = page.endsWith('.md') ? htmlFor(page) : page;
    const tab = await browser.newPage();
    const problems = [];
    tab.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    tab.on('requestfailed', (r) => problems.push(`failed to load ${r.url()}`));
    await tab.setViewport({ width: 1200, height: 900 });
    await tab.goto('file://' + path.resolve(file), { waitUntil: 'networkidle0' });
    // Lazy images load once scrolled to: scroll through the page first.
    await tab.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) { window.scrollTo(0, y); await new Promise((r) => setTimeout(r, 30)); }
      await Promise.all([...document.images].map((img) => img.decode().catch(() => {})));
      window.scrollTo(0, 0);
    });
    const images = await tab.evaluate(() => [...document.images].map((img) => ({ src: img.getAttribute('src'), ok: img.complete && img.naturalWidth > 0 })));
    const broken = images.filter((i) => !i.ok).map((i) => `image does not load: ${i.src}`);
    problems.push(...broken);
    // Every page but the index shows boards.
    if (images.length === 0 && path.basename(page) !== 'index.html') problems.push('no image on the page');
    const name = path.basename(page).replace(/\.html$/, '').replace(/^(.*)\.md$/, 'doc-$1');
    const shot = path.join(shots, name + '.png');
    await tab.screenshot({ path: shot });
    console.log(`${page}: ${images.length} images, ${problems.length} problems -> ${shot}`);
    for (const p of problems) console.log(`  ${p}`);
    failures += problems.length;
    await tab.close();
    if (file !== page) fs.unlinkSync(file);
  }
  await browser.close();
  process.exit(failures ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });
