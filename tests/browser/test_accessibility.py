"""Accessibility of the handouts, page by page: axe-core finds no serious or critical violation,
and every image has alt text.

axe-core comes from npm (package.json, `npm ci`) and is injected into each page from
node_modules: nothing is fetched. Each page is checked once MathJax has typeset it and its widgets
have rendered from the stored state (tools/build_handouts.py's WAIT_RENDERED), so that what is
checked is what a reader meets. The reveal.js decks are checked as they open: axe sees the first
slide (the others are hidden); the alt check sees every image of the deck.

Alt text: an <img> lacks it when its alt is empty, is the image's own path (myst-nb's default), or
nbconvert's placeholder. The figures of the notebooks still lacking it are listed, per page, in
MISSING_ALT: the test fails when a page has more, and also when it has fewer (then shorten the
list), so the list is always the true count. axe's own image-alt rule is left to this check.

The `browser` tier (conftest.py): run with `make test-browser`, which builds the handouts.
"""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from build_handouts import CHROMIUM, CHROMIUM_ARGS, WAIT_RENDERED, PageWatch, serve  # noqa: E402

HANDOUTS = ROOT / "_build" / "handouts"  # make handouts
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = sorted(
    p.relative_to(HANDOUTS).as_posix()
    for pattern in ("index.html", "html/*.html", "slides/*.slides.html")
    for p in HANDOUTS.glob(pattern)
)
BLOCKING = ("serious", "critical")

# Images without alt text, per page: none since every notebook figure goes through
# perclib.plotting.show_figure and the widgets store their figures' descriptions (2026-11-23).
# Keep equal to the truth: the test fails either way.
MISSING_ALT: dict[str, int] = {}

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.map(n => n.target.join(' '))}));
}"""

NO_ALT = """() => {
  const placeholder = 'No description has been provided for this image';
  return Array.from(document.images).filter(img => {
    const alt = (img.getAttribute('alt') || '').trim();
    const src = img.getAttribute('src') || '';
    return !alt || alt === placeholder || alt === src || src.endsWith('/' + alt);
  }).map(img => (img.closest('.widget-subarea') ? 'widget ' : 'figure ')
                + (img.getAttribute('src') || '').slice(0, 60));
}"""


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def base():
    with serve(HANDOUTS) as url:
        yield url


def test_the_handouts_are_built_and_axe_is_installed():
    assert AXE.exists(), "axe-core missing: run `npm ci` (make handouts does)"
    assert "index.html" in PAGES and "html/intro.html" in PAGES, PAGES
    assert sum(p.startswith("html/0") for p in PAGES) >= 7, PAGES
    assert set(MISSING_ALT) <= set(PAGES), set(MISSING_ALT) - set(PAGES)


@pytest.mark.parametrize("page_path", PAGES)
def test_page_passes_axe_and_has_alt_text(browser, base, page_path):
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    try:
        watch = PageWatch(page, base)
        page.goto(f"{base}/{page_path}", wait_until="networkidle")
        if page_path.startswith("slides/"):
            page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
        seen = page.evaluate(WAIT_RENDERED, page_path.startswith("slides/"))
        assert seen["unrendered"] == 0, seen
        page.add_script_tag(path=str(AXE))  # inline: no request
        violations = page.evaluate(AXE_RUN)
        no_alt = page.evaluate(NO_ALT)
        assert watch.problems == []
    finally:
        page.close()
    counts = {
        impact: sum(len(v["nodes"]) for v in violations if v["impact"] == impact)
        for impact in ("critical", "serious", "moderate", "minor")
    }
    print(
        json.dumps(
            {
                "page": page_path,
                "axe": counts,
                "images_without_alt": len(no_alt),
                "rules": sorted({f"{v['impact']}:{v['id']}" for v in violations}),
            }
        )
    )
    blocking = [v for v in violations if v["impact"] in BLOCKING and v["id"] != "image-alt"]
    assert blocking == [], json.dumps(blocking, indent=1, ensure_ascii=False)
    image_alt = sum(len(v["nodes"]) for v in violations if v["id"] == "image-alt")
    assert image_alt <= len(no_alt), "axe finds images without alt that the alt check missed"
    assert len(no_alt) == MISSING_ALT.get(page_path, 0), no_alt
