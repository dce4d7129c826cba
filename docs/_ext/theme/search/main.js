// The site's search, in place of the MkDocs search plugin's main.js: it works
// from a page opened from disk (file://) as from a server.  Browsers refuse a
// web worker and a request for search_index.json on file:// pages, so the
// index is read from search_index.js (written by docs/_ext/site_hooks.py) and
// lunr runs on the page itself, both loaded with <script> tags.
(function () {
  "use strict";

  function joinUrl(base, path) {
    if (path.charAt(0) === "/") {
      return path;
    }
    return base.charAt(base.length - 1) === "/" ? base + path : base + "/" + path;
  }

  function escapeHtml(value) {
    return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function loadScript(path, done) {
    var tag = document.createElement("script");
    tag.src = joinUrl(base_url, path);
    tag.onload = done;
    tag.onerror = function () {
      console.error("search: could not load " + path);
    };
    document.head.appendChild(tag);
  }

  var index = null;
  var documents = {};
  var minLength = 3;

  function buildIndex() {
    var data = window.ddsbindSearchIndex;
    if (data.config && data.config.separator) {
      lunr.tokenizer.separator = new RegExp(data.config.separator);
    }
    if (data.config && data.config.min_search_length) {
      minLength = data.config.min_search_length;
    }
    data.docs.forEach(function (doc) {
      documents[doc.location] = doc;
    });
    if (data.index) {
      index = lunr.Index.load(data.index);
    } else {
      index = lunr(function () {
        this.field("title");
        this.field("text");
        this.ref("location");
        for (var i = 0; i < data.docs.length; i++) {
          this.add(data.docs[i]);
        }
      });
    }
  }

  function show(query) {
    var box = document.getElementById("mkdocs-search-results");
    if (!box) {
      return;
    }
    box.innerHTML = "";
    if (query.length < minLength) {
      return;
    }
    var found = [];
    try {
      found = index.search(query);
    } catch (err) {
      found = []; // a half-typed lunr query ("title:"), nothing to show yet
    }
    if (!found.length) {
      box.insertAdjacentHTML("beforeend", "<p>" + (box.getAttribute("data-no-results-text") || "No results found") + "</p>");
      return;
    }
    found.forEach(function (hit) {
      var doc = documents[hit.ref];
      box.insertAdjacentHTML(
        "beforeend",
        '<article><h3><a href="' + joinUrl(base_url, doc.location) + '">' + escapeHtml(doc.title) +
          "</a></h3><p>" + escapeHtml(doc.text.substring(0, 200)) + "</p></article>"
      );
    });
  }

  function queryFromLocation() {
    var pairs = window.location.search.substring(1).split("&");
    for (var i = 0; i < pairs.length; i++) {
      var pair = pairs[i].split("=");
      if (pair[0] === "q") {
        return decodeURIComponent((pair[1] || "").replace(/\+/g, "%20"));
      }
    }
    return "";
  }

  function start() {
    buildIndex();
    var input = document.getElementById("mkdocs-search-query");
    if (!input) {
      return;
    }
    input.addEventListener("keyup", function () {
      show(input.value);
    });
    var term = queryFromLocation();
    if (term) {
      input.value = term;
      show(term);
    }
  }

  if (document.getElementById("mkdocs-search-query")) {
    // Only the results page needs the index; the search box elsewhere is a form that opens it.
    loadScript("search/lunr.js", function () {
      loadScript("search/search_index.js", start);
    });
  }
})();
