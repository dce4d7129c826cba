"""The built site opened from disk (file://) in a real headless browser, Debian's chromium, as a reader opens it."""

from __future__ import annotations

import html.parser
import urllib.parse
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dom(browser):
    """A function: the DOM of a URL once the page has loaded and its scripts ran, in headless chromium."""
    context = browser.new_context()
    page = context.new_page()

    def load(url: str, ready: str | None = None) -> str:
        page.goto(url, wait_until="load")
        if ready:
            page.wait_for_selector(ready, state="attached", timeout=30_000)
        return page.content()

    yield load
    context.close()


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


def test_every_home_page_link_opens_a_page(site, dom):
    """Opened from disk, the home page's links land on pages, not on folder listings (use_directory_urls: false)."""
    home = (site / "index.html").as_uri()
    links = _parse(dom(home)).links
    targets = set()
    for href in links:
        url = urllib.parse.urljoin(home, href)
        if url.startswith("file://"):
            targets.add(urllib.parse.urldefrag(url).url)
    assert len(targets) > 30  # the whole navigation: tutorials, how-tos, every reference page
    for url in sorted(targets):
        path = Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
        assert path.is_file(), f"{url} is not a file (a browser shows a folder listing)"
        text = dom(url)
        assert 'role="main"' in text, f"{url} is not one of the site's pages"
        assert "Sentinel" not in text, url


def test_search_works_from_disk(site, dom):
    """The search box finds pages when the site is opened from disk (no web worker, no fetch of the index)."""
    text = dom((site / "search.html").as_uri() + "?q=vulnerability", ready="#mkdocs-search-results a")
    results = [href for href in _parse(text).links if ".html" in href]
    assert any("reference/api" in href for href in results), text[-3000:]


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
