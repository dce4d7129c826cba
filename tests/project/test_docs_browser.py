"""The built site opened from disk (file://) in a real headless browser, Debian's chromium, as a reader opens it."""

from __future__ import annotations

import html.parser
import subprocess
import urllib.parse
from pathlib import Path

import pytest

from tests.oracles import require
from tests.project.test_docs_site import build_site

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built as `make docs` builds it."""
    return build_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A function: the DOM of a URL after the page's scripts ran, in headless chromium."""
    chromium = require("chromium")
    profile = tmp_path_factory.mktemp("chromium-profile")

    def dom(url: str) -> str:
        proc = subprocess.run(
            [
                str(chromium),
                "--headless",
                "--no-sandbox",  # the tests run as root on CI
                "--disable-gpu",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=5000",
                "--dump-dom",
                url,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout

    return dom


class _Page(html.parser.HTMLParser):
    """The links, the external resources and the visible text of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.fetched: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")
        if tag in ("script", "img", "iframe") and values.get("src"):
            self.fetched.append(values["src"] or "")
        if tag == "link" and values.get("href") and values.get("rel") != "canonical":
            self.fetched.append(values["href"] or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def test_every_home_page_link_opens_a_page(site, browser):
    """Opened from disk, the home page's links land on pages, not on folder listings (use_directory_urls: false)."""
    home = (site / "index.html").as_uri()
    links = _parse(browser(home)).links
    targets = set()
    for href in links:
        url = urllib.parse.urljoin(home, href)
        if url.startswith("file://"):
            targets.add(urllib.parse.urldefrag(url).url)
    assert len(targets) > 30  # the whole navigation: tutorials, how-tos, every reference page
    for url in sorted(targets):
        path = Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
        assert path.is_file(), f"{url} is not a file (a browser shows a folder listing)"
        dom = browser(url)
        assert 'role="main"' in dom, f"{url} is not one of the site's pages"
        assert "Sentinel" not in dom, url


def test_search_works_from_disk(site, browser):
    """The search box finds pages when the site is opened from disk (no web worker, no fetch of the index)."""
    dom = browser((site / "search.html").as_uri() + "?q=vulnerability")
    results = [href for href in _parse(dom).links if ".html" in href]
    assert any("reference/api" in href for href in results), dom[-3000:]


def test_pages_fetch_nothing_and_show_no_raw_markup(site):
    """No page loads a script or stylesheet from the internet, shows click's `Sentinel`, or raw double backquotes."""
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    for path in pages:
        page = _parse(path.read_text(encoding="utf-8"))
        outside = [src for src in page.fetched if urllib.parse.urlparse(src).scheme in ("http", "https")]
        assert not outside, f"{path.relative_to(site)} fetches {outside}"
        text = "".join(page.text)
        assert "Sentinel" not in text, path
        assert "``" not in text, f"{path.relative_to(site)}: {text[max(0, text.find('``') - 80) :][:160]!r}"
    highlighted = (site / "tutorials" / "first-table.html").read_text(encoding="utf-8")
    assert 'class="highlight"' in highlighted and '<span class="kn">import</span>' in highlighted
