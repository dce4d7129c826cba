"""A griffe extension: the reST habits of ddsbind's docstrings, read as Markdown by mkdocstrings.

The docstrings are numpydoc (reST inside); mkdocstrings renders their text
as Markdown.  Three reST forms would come out garbled, so each docstring is
rewritten before it is parsed:

* a cross-reference role (``:class:`~ddsbind.Deal```, ``:func:`x```) becomes
  inline code of its target (its last component after ``~``);
* a paragraph ending in ``::`` and the indented block after it become the
  paragraph (ending in ``:``) and a fenced code block;
* a reST simple table (rows framed by ``====  ====`` lines) becomes a fenced
  text block, so its columns stay aligned;
* inline literals (double backquotes) inside those text blocks and in a
  numpydoc type (``name : type`` lines), which the site shows as code
  already, lose their backquotes, so none shows raw on a page.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import griffe

_LITERAL = re.compile(r"``([^`]+)``")
_TYPED_NAME = re.compile(r"^(\s*[\w*]+(?:\s*,\s*[\w*]+)*\s:\s)(.*)$")
_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj|const|term|ref):`(~?)([^`]+)`")


def _role(m: re.Match[str]) -> str:
    target = m.group(2)
    return f"`{target.rsplit('.', 1)[-1] if m.group(1) else target}`"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def markdown_of(text: str) -> str:
    """The docstring ``text`` with roles, literal blocks and simple tables rewritten (see the module docstring)."""
    text = _ROLE.sub(_role, text)
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if re.fullmatch(r"=+( +=+)+", stripped):  # a simple table: three rule lines
            rules, j = 1, i + 1
            while j < len(lines) and rules < 3:
                if re.fullmatch(r"=+( +=+)+", lines[j].strip()):
                    rules += 1
                j += 1
            if rules == 3:
                out += ["```text", *(_LITERAL.sub(r"\1", row) for row in lines[i:j]), "```"]
                i = j
                continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            base = _indent(line)
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            k = j
            while k < len(lines) and (not lines[k].strip() or _indent(lines[k]) > base):
                k += 1
            if k > j:
                head = line.rstrip()[:-2].rstrip()
                out.append(head + ":" if head.strip() else "")
                block = lines[j:k]
                while block and not block[-1].strip():
                    block.pop()
                cut = min(_indent(b) for b in block if b.strip())
                pad = " " * base
                out += ["", pad + "```text", *(pad + b[cut:] if b.strip() else "" for b in block), pad + "```", ""]
                i = k
                continue
        typed = _TYPED_NAME.match(line)
        out.append(typed.group(1) + _LITERAL.sub(r"\1", typed.group(2)) if typed else line)
        i += 1
    return "\n".join(out)


class RestToMarkdown(griffe.Extension):
    """Rewrite every docstring with :func:`markdown_of` as griffe loads it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_of(obj.docstring.value)


class PublicTable(griffe.Extension):
    """A package's ``__all__`` read from its one table of public names (``_PUBLIC``: module -> names).

    ``ddsbind/__init__.py`` makes ``__all__`` and its lazy imports from that
    table at run time; griffe reads source without running it, so the
    table's literal is read here instead, and the package's page lists
    every public name.
    """

    def on_module_members(self, *, node: Any, mod: griffe.Module, **kwargs: Any) -> None:
        table = mod.members.get("_PUBLIC")
        if isinstance(table, griffe.Attribute) and table.value is not None:
            names = ast.literal_eval(str(table.value))
            mod.exports = sorted(name for group in names.values() for name in group)
