"""Build the lecture handouts from the notebooks' stored outputs (nothing is re-executed).

Usage: python tools/build_handouts.py [--notebooks notebooks] [--out _build/handouts]

Into ``--out`` (git-ignored) it writes:

* ``html/``   a Jupyter Book site of the whole course, in notebook order: figures, typeset maths,
              and the widgets rendered from the widget state stored in each notebook's metadata;
* ``pdf/``    one PDF per notebook, printed from its HTML page by headless Chromium once MathJax
              and the widgets have rendered; the PDF's text is checked for raw TeX;
* ``slides/`` reveal.js slides per notebook (nbconvert ``--to slides``, from the cells'
              ``metadata.slideshow.slide_type``);
* ``index.html`` a landing page linking all three, with page counts and sizes.

Offline: MathJax, the widget renderer (@jupyter-widgets/html-manager with require.js), reveal.js
and jQuery are copied from ``node_modules`` (``npm ci`` from package-lock.json, done by
``make handouts``), and anywidget's front end (perclib's sliders) from the installed anywidget
package, so a page never asks a CDN for anything. Printing fails the build when a page
requests anything that is not local, when a request fails, or when MathJax reports a TeX error.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import html
import http.server
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
NODE = ROOT / "node_modules"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NOTEBOOK_GLOB = "[0-9][0-9]_*.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# Pages after the notebooks: the guide for running a class (docs/teaching.md), the errata (book/).
BACK_MATTER = ("teaching", "errata")
REMOTE_RESOURCE = re.compile(
    r"""<(?:script|link|img|iframe|source)\b[^>]*?\b(?:src|href)=["'](https?://[^"']+)"""
)


# ----------------------------------------------------------------------------- notebooks
def find_notebooks(folder: pathlib.Path) -> list[pathlib.Path]:
    """The course notebooks in order (NN_name.ipynb), each checked to have its outputs stored."""
    paths = sorted(folder.glob(NOTEBOOK_GLOB))
    if not paths:
        raise SystemExit(f"no notebooks matching {NOTEBOOK_GLOB} in {folder}")
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        unrun = [
            i
            for i, c in enumerate(nb.cells)
            if c.cell_type == "code" and c.source.strip() and c.get("execution_count") is None
        ]
        if unrun:
            raise SystemExit(
                f"{path}: code cells {unrun} have no stored outputs; the handouts "
                f"show stored outputs, so run `python tools/run_notebooks.py {path}` "
                "first"
            )
        if (
            any(
                WIDGET_VIEW in o.get("data", {})
                for c in nb.cells
                if c.cell_type == "code"
                for o in c.outputs
            )
            and "widgets" not in nb.metadata
        ):
            raise SystemExit(
                f"{path}: shows widgets but stores no widget state; run it with "
                "tools/run_notebooks.py, which stores it"
            )
    return paths


def title_of(path: pathlib.Path) -> str:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+)$", cell.source, re.M)
            if match:
                return match.group(1).strip()
    return path.stem


# ----------------------------------------------------------------------------- offline assets
def _copy(src: pathlib.Path, dest: pathlib.Path, ignore=None) -> None:
    if not src.exists():
        raise SystemExit(f"{src} is missing: run `npm ci` (make handouts does) to fetch the assets")
    dest.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dest, ignore=ignore, dirs_exist_ok=True)
    else:
        shutil.copy2(src, dest)


def copy_offline_assets(dest: pathlib.Path, *, slides: bool = False) -> None:
    """Copy MathJax 3, require.js and the widget renderer (plus reveal.js and jQuery for slides)."""
    maps = shutil.ignore_patterns("*.map")
    mathjax = NODE / "mathjax" / "es5"
    _copy(mathjax / "tex-mml-chtml.js", dest / "mathjax" / "tex-mml-chtml.js")
    for sub in ("input", "output", "a11y", "ui", "adaptors", "sre"):  # loaded on demand
        _copy(mathjax / sub, dest / "mathjax" / sub, maps)
    _copy(NODE / "mathjax" / "LICENSE", dest / "mathjax" / "LICENSE")
    _copy(NODE / "requirejs" / "require.js", dest / "require.js")
    _copy(BOOK / "offline" / "widgets-setup.js", dest / "widgets-setup.js")
    manager = NODE / "@jupyter-widgets" / "html-manager"
    _copy(
        manager / "dist",
        dest / "html-manager",
        shutil.ignore_patterns("*.map", "embed.js", "libembed-amd.js", "*.txt"),
    )
    _copy(manager / "package.json", dest / "html-manager" / "package.json")  # its licence (BSD-3)
    copy_anywidget(dest / "anywidget")
    if slides:
        reveal = NODE / "reveal.js"
        _copy(reveal / "dist", dest / "reveal.js" / "dist", maps)
        _copy(reveal / "plugin" / "notes", dest / "reveal.js" / "plugin" / "notes", maps)
        _copy(reveal / "LICENSE", dest / "reveal.js" / "LICENSE")
        _copy(NODE / "jquery" / "dist" / "jquery.min.js", dest / "jquery.min.js")
        _copy(NODE / "jquery" / "LICENSE.txt", dest / "jquery.LICENSE.txt")


def copy_anywidget(dest: pathlib.Path) -> None:
    """Copy anywidget's front end for require.js (the AMD build its wheel ships for the classic
    notebook, ``nbextension/index.js``) and its licence (MIT).

    perclib's sliders are anywidget widgets: the stored widget state names the model module
    ``anywidget``, which html-manager asks require.js for before any CDN; widgets-setup.js maps
    the name to this copy. It comes from the installed package, the version that wrote the state.
    The module imports each widget's ESM, stored in the state, from a Blob URL: nothing is fetched.
    """
    import importlib.metadata

    import anywidget

    _copy(pathlib.Path(anywidget.__file__).parent / "nbextension" / "index.js", dest / "index.js")
    licence = [
        f for f in importlib.metadata.distribution("anywidget").files or [] if "LICENSE" in f.name
    ]
    if not licence:
        raise SystemExit("anywidget's LICENSE is missing from its installed distribution")
    _copy(pathlib.Path(licence[0].locate()), dest / "LICENSE")


# ----------------------------------------------------------------------------- HTML site
def build_site(notebooks: list[pathlib.Path], out: pathlib.Path) -> pathlib.Path:
    """Stage book/ with the notebooks and a generated table of contents, then run Sphinx."""
    src = out / ".src"
    shutil.copytree(
        BOOK, src, ignore=shutil.ignore_patterns("slides", "offline", "conf.py", "_toc.yml")
    )
    for path in notebooks:
        shutil.copy2(path, src / path.name)
    shutil.copy2(ROOT / "docs" / "teaching.md", src / "teaching.md")  # the guide, one source
    toc = [
        "# Generated by tools/build_handouts.py: the notebooks in order, then the back matter.",
        "format: jb-book",
        "root: intro",
        "chapters:",
    ]
    toc += ["- file: notation"] if (BOOK / "notation.md").exists() else []  # the course's symbols
    toc += [f"- file: {path.stem}" for path in notebooks]
    toc += [f"- file: {page}" for page in BACK_MATTER]
    (src / "_toc.yml").write_text("\n".join(toc) + "\n")
    run(
        [str(pathlib.Path(sys.executable).parent / "jupyter-book"), "config", "sphinx", str(src)],
        quiet=True,
    )
    with open(src / "conf.py", "a") as conf:  # no live-code (thebe) nor comment widgets: offline
        conf.write(
            "\nextensions = [e for e in extensions if e not in ('sphinx_thebe', "
            "'sphinx_comments')]\n"
        )
    site = out / "html"
    run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-q",
            "-d",
            str(out / ".doctrees"),
            str(src),
            str(site),
        ]
    )
    copy_offline_assets(site / "_static" / "offline")
    for page in site.glob("*.html"):
        page.write_text(accessible(page.read_text()))
    for path in notebooks:
        page = (site / f"{path.stem}.html").read_text()
        for needed in ("offline/mathjax/tex-mml-chtml.js",):
            if needed not in page:
                raise SystemExit(f"{path.stem}.html does not load {needed}")
        if "widgets" in nbformat.read(path, as_version=4).metadata:
            if "application/vnd.jupyter.widget-state+json" not in page:
                raise SystemExit(f"{path.stem}.html lacks the stored widget state")
    return site


# axe-core's label-content-name-mismatch in the theme: a control's name must contain the text it
# shows, or voice control cannot find it. The search buttons show "Search Ctrl+K" but are named
# "Search": drop that aria-label and they are named by what they show. The colour-mode button is
# named "Color mode" but its icons carry titles (Light, Dark, ...), which Font Awesome turns into
# their names: drop the titles, the icons are decoration.
SEARCH_BUTTON = re.compile(
    r'(<button class="[^"]*search-button__button[^"]*"[^>]*?) aria-label="Search"'
)
MODE_ICON_TITLE = re.compile(r'(<i class="theme-switch [^>]*?)\s+title="[^"]*"')


def accessible(page: str) -> str:
    """Mend what axe-core finds in the theme's HTML (book/_static/handouts.css mends colours)."""
    return MODE_ICON_TITLE.sub(r"\1", SEARCH_BUTTON.sub(r"\1", page))


# ----------------------------------------------------------------------------- slides
def build_slides(notebooks: list[pathlib.Path], out: pathlib.Path) -> pathlib.Path:
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    c = Config()
    c.SlidesExporter.extra_template_basedirs = [str(BOOK)]
    c.SlidesExporter.template_name = "slides"  # book/slides: nbconvert's reveal template, offline
    c.SlidesExporter.reveal_url_prefix = "offline/reveal.js"
    c.SlidesExporter.reveal_scroll = True
    c.SlidesExporter.reveal_theme = "white"  # its font is bundled; "simple" imports Google Fonts
    c.SlidesExporter.mathjax_url = "offline/mathjax/tex-mml-chtml.js"
    c.SlidesExporter.require_js_url = "offline/require.js"
    c.SlidesExporter.jquery_url = "offline/jquery.min.js"
    c.SlidesExporter.widget_renderer_url = "offline/html-manager/embed-amd.js"
    exporter = SlidesExporter(config=c)
    folder = out / "slides"
    folder.mkdir(parents=True)
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        kinds = {c.metadata.get("slideshow", {}).get("slide_type") for c in nb.cells}
        if "slide" not in kinds:
            print(f"warning: {path.name} marks no cell as a slide; it becomes one long slide")
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title_of(path)}})
        remote = REMOTE_RESOURCE.findall(body)  # resources, not the notebooks' hyperlinks
        if remote or "import mermaid" in body:
            raise SystemExit(f"slides of {path.name} still load from a CDN: {remote}")
        (folder / f"{path.stem}.slides.html").write_text(body)
    copy_offline_assets(folder / "offline", slides=True)
    return folder


# ----------------------------------------------------------------------------- PDF
class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the build log short
        pass


@contextlib.contextmanager
def serve(folder: pathlib.Path):
    """Serve a folder on 127.0.0.1 (a free port) for the duration of the block; yield its URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def launch_chromium(playwright):
    if not pathlib.Path(CHROMIUM).exists():
        raise SystemExit(
            f"{CHROMIUM} not found: run `make handouts`, which installs it or says how"
        )
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


class PageWatch:
    """Record failed and non-local requests of a page (non-local ones are blocked)."""

    def __init__(self, page, base_url: str):
        self.problems: list[str] = []
        self.base_url = base_url
        page.route("**/*", self._route)
        page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} ({r.failure})"))
        page.on("response", self._response)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

    def _route(self, route):
        url = route.request.url
        if url.startswith((self.base_url, "data:", "blob:")):
            route.continue_()
        else:
            self.problems.append(f"not local (blocked): {url}")
            route.abort()

    def _response(self, response):
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")


# Run in the page: wait for MathJax (when the page has maths, or always: the argument), then for
# every stored widget view to be rendered; report what is left unrendered.
WAIT_RENDERED = """async (mathjaxLoaded) => {
  const until = (test, ms) => new Promise((resolve, reject) => {
    const t0 = Date.now();
    (function poll() {
      if (test()) return resolve(true);
      if (Date.now() - t0 > ms) return reject(new Error('timed out'));
      setTimeout(poll, 100);
    })();
  });
  const hasMath = mathjaxLoaded || document.querySelector('.math') !== null;
  if (hasMath) {
    await until(() => window.MathJax && MathJax.startup && MathJax.startup.promise, 20000);
    await MathJax.startup.promise;
  }
  const views = document.querySelectorAll(\
'script[type="application/vnd.jupyter.widget-view+json"]');
  await until(() => Array.from(views).every(v => {
    const area = v.previousElementSibling;
    return area && area.classList.contains('widget-subarea') && area.childElementCount > 0;
  }), 20000).catch(() => null);
  const unrendered = Array.from(views).filter(v => {
    const area = v.previousElementSibling;
    return !(area && area.classList.contains('widget-subarea') && area.childElementCount > 0);
  }).length;
  const raw = Array.from(document.querySelectorAll('.math'))
    .filter(m => !m.querySelector('mjx-container') && m.tagName !== 'MJX-CONTAINER')
    .map(m => m.textContent.trim().slice(0, 80));
  const errors = Array.from(document.querySelectorAll('mjx-merror'))
    .map(e => (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 80));
  await Promise.all(Array.from(document.images).map(i => i.complete ? null :
    new Promise(r => { i.onload = i.onerror = r; })));
  return {views: views.length, unrendered, raw, errors,
          maths: document.querySelectorAll('mjx-container').length};
}"""

FOOTER = (
    '<div style="font-size:8px;width:100%;text-align:center;color:#555;">'
    '<span class="title"></span> · page <span class="pageNumber"></span> of '
    '<span class="totalPages"></span></div>'
)


def print_pdfs(notebooks: list[pathlib.Path], out: pathlib.Path) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    folder = out / "pdf"
    folder.mkdir(parents=True)
    report = {}
    with serve(out) as base, sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            for path in notebooks:
                page = browser.new_page(viewport={"width": 1100, "height": 1400})
                watch = PageWatch(page, base)
                page.goto(f"{base}/html/{path.stem}.html", wait_until="load")
                page.wait_for_load_state("networkidle")
                seen = page.evaluate(WAIT_RENDERED, False)
                problems = list(watch.problems)
                if seen["unrendered"]:
                    problems.append(
                        f"{seen['unrendered']} of {seen['views']} widget views did not render"
                    )
                problems += [f"maths not typeset: {t!r}" for t in seen["raw"]]
                problems += [f"TeX error: {t!r}" for t in seen["errors"]]
                if problems:
                    raise SystemExit(f"{path.stem}.html:\n  " + "\n  ".join(problems))
                pdf = folder / f"{path.stem}.pdf"
                page.pdf(
                    path=str(pdf),
                    format="A4",
                    print_background=True,
                    margin={"top": "14mm", "bottom": "16mm", "left": "12mm", "right": "12mm"},
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=FOOTER,
                )
                page.close()
                report[path.stem] = {
                    "maths": seen["maths"],
                    "widgets": seen["views"],
                    "slides": check_slides(browser, base, path),
                }
            for other in ("html/intro.html", "html/search.html"):
                check_offline(browser, base, other)
        finally:
            browser.close()
    for path in notebooks:
        pdf = folder / f"{path.stem}.pdf"
        report[path.stem].update(pages=pdf_pages(pdf), bytes=pdf.stat().st_size)
        leftovers = raw_tex_in_pdf(pdf, path)
        if leftovers:
            raise SystemExit(f"{pdf.name}: raw TeX left in the PDF text: {leftovers[:10]}")
    return report


def check_offline(browser, base: str, relative: str) -> None:
    """Open a page that is neither a notebook nor a deck: nothing fails, nothing leaves."""
    page = browser.new_page()
    watch = PageWatch(page, base)
    page.goto(f"{base}/{relative}", wait_until="networkidle")
    page.close()
    if watch.problems:
        raise SystemExit(f"{relative}:\n  " + "\n  ".join(watch.problems))


def check_slides(browser, base: str, notebook: pathlib.Path) -> int:
    """Open a deck offline: reveal.js starts, MathJax typesets, nothing fails. Count its slides."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    watch = PageWatch(page, base)
    page.goto(f"{base}/slides/{notebook.stem}.slides.html", wait_until="load")
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=30_000)
    seen = page.evaluate(WAIT_RENDERED, True)  # slides always load MathJax
    page.wait_for_load_state("networkidle")
    problems = list(watch.problems) + [f"TeX error: {t!r}" for t in seen["errors"]]
    if seen["unrendered"]:
        problems.append(f"{seen['unrendered']} of {seen['views']} widget views did not render")
    if problems:
        raise SystemExit(f"slides/{notebook.stem}.slides.html:\n  " + "\n  ".join(problems))
    count = page.evaluate("() => Reveal.getTotalSlides()")
    page.close()
    return count


def pdf_pages(pdf: pathlib.Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


TEX_COMMAND = re.compile(r"\\[A-Za-z]+")


def raw_tex_in_pdf(pdf: pathlib.Path, notebook: pathlib.Path) -> list[str]:
    """TeX that the PDF's text shows as source: delimiters, or commands from the markdown maths.

    A TeX command is raw when it appears in the PDF's text more often than in the notebook's code
    and text outputs (where it is legitimately shown as code, e.g. a matplotlib label).
    """
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    nb = nbformat.read(notebook, as_version=4)
    code = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            code.append(cell.source)
            for o in cell.outputs:
                code.append(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")))
                code.append("\n".join(o.get("traceback", [])))
    code = "\n".join(code)
    found = []
    for delimiter in ("\\(", "\\)", "\\[", "\\]", "$", "\\begin{"):
        if text.count(delimiter) > code.count(delimiter):
            found.append(delimiter)
    for command in sorted(set(TEX_COMMAND.findall(text))):
        if text.count(command) > code.count(command):
            found.append(command)
    return found


# ----------------------------------------------------------------------------- landing page
def human(n: int) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def folder_size(folder: pathlib.Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def write_index(notebooks, out, pdfs) -> None:
    rows = []
    for path in notebooks:
        info = pdfs[path.stem]
        rows.append(
            f"<tr><td>{html.escape(title_of(path))}</td>"
            f"<td><a href='html/{path.stem}.html'>page</a></td>"
            f"<td><a href='pdf/{path.stem}.pdf'>PDF</a> ({info['pages']} pages, "
            f"{human(info['bytes'])})</td>"
            f"<td><a href='slides/{path.stem}.slides.html'>slides</a> ({info['slides']})</td></tr>"
        )
    (out / "index.html").write_text(f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The perceptron course: handouts</title>
<style>body{{font-family:sans-serif;max-width:52em;margin:2em auto;}}\
td{{padding:.3em .8em;}}</style>
</head><body><main>
<h1>The perceptron course: handouts</h1>
<p>Built from the notebooks' stored outputs. Everything here works offline.
The <a href="html/intro.html">course site</a> has all notebooks in order.</p>
<table>{"".join(rows)}</table>
</main></body></html>
""")


# ----------------------------------------------------------------------------- main
def run(cmd, quiet=False):
    result = subprocess.run(cmd, cwd=ROOT, capture_output=quiet, text=True)
    if result.returncode:
        if quiet:
            print(result.stdout, result.stderr, file=sys.stderr)
        raise SystemExit(f"failed ({result.returncode}): {' '.join(cmd)}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notebooks", type=pathlib.Path, default=ROOT / "notebooks")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "_build" / "handouts")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    notebooks = find_notebooks(args.notebooks.resolve())
    # Built beside the output folder, then renamed into place: a reader (a test running while
    # CI builds the handouts) sees the whole site or none of it, never half of one.
    final = args.out.resolve()
    out = final.with_name(final.name + ".partial")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    site = build_site(notebooks, out)
    print(f"site built ({time.perf_counter() - start:.0f} s)")
    slides = build_slides(notebooks, out)
    print(f"slides built ({time.perf_counter() - start:.0f} s)")
    pdfs = print_pdfs(notebooks, out)
    print(f"PDFs printed and slides checked in Chromium ({time.perf_counter() - start:.0f} s)")
    write_index(notebooks, out, pdfs)
    shutil.rmtree(out / ".src")
    shutil.rmtree(out / ".doctrees")
    shutil.rmtree(out / "jupyter_execute", ignore_errors=True)  # myst-nb's copy of the outputs
    summary = {
        "notebooks": len(notebooks),
        "html_bytes": folder_size(site),
        "slides_bytes": folder_size(slides),
        "pdf": pdfs,
        "seconds": round(time.perf_counter() - start, 1),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if final.exists():
        old = final.with_name(final.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        final.rename(old)
        out.rename(final)
        shutil.rmtree(old)
    else:
        out.rename(final)
    print(f"handouts in {final} ({summary['seconds']} s)")
    print(f"  html/    {len(notebooks)} notebooks, {human(summary['html_bytes'])}")
    print(f"  slides/  {len(notebooks)} decks, {human(summary['slides_bytes'])}")
    for name, info in pdfs.items():
        print(
            f"  pdf/{name}.pdf: {info['pages']} pages, {human(info['bytes'])}, "
            f"{info['maths']} formulas, {info['widgets']} widgets; "
            f"slides/{name}.slides.html: {info['slides']} slides"
        )


if __name__ == "__main__":
    main()
