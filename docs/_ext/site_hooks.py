"""MkDocs hooks: a site that works opened from disk, and a CLI reference with the defaults click really applies.

Three things the theme and plugins do not do by themselves:

* The command-line reference (``reference/cli.md``, the line
  ``<!-- ddsbind-cli-reference -->``) is generated here from click: per
  command its help, usage and a table of options whose Default column is
  the value the command receives when the option is left out (click 8.3
  keeps an internal ``UNSET`` marker as the stored default of many
  options; it is never shown).
* Search works from ``file://``: browsers refuse both a web worker and a
  fetch of ``search_index.json`` there, so the index is also written as a
  script, ``search/search_index.js``, which ``search/main.js`` (in
  ``docs/_ext/theme``) loads with a ``<script>`` tag.
* Code is highlighted when the site is built (Pygments, through
  ``pymdownx.highlight``), and its stylesheet, ``css/pygments.css``, is
  written here: no page fetches anything from outside the site.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Iterator
from typing import Any

import click

MARKER = "<!-- ddsbind-cli-reference -->"
_PIPE = "&#124;"  # a literal | inside a Markdown table cell


def default_text(option: click.Option, ctx: click.Context) -> str:
    """What ``option`` is when the command line leaves it out, in words for the reference table."""
    if option.required:
        return "required"
    if isinstance(option.show_default, str):
        return option.show_default
    value, _source = option.consume_value(ctx, {})
    if callable(value):
        return "computed when run"
    if _unset(value):
        value = None
    if option.is_flag and not option.is_bool_flag:
        # One of several flags sharing a destination (-0/-2/-3): on if it is the default choice.
        return "on" if value == option.flag_value else "off"
    if option.is_flag:
        return "on" if value else "off"
    if value is None or value in ((), {}):
        return "none"
    if value == "":
        return "empty"
    return f"`{option.type_cast_value(ctx, value)}`"  # as the command sees it: "N" becomes the seat N


def _unset(value: object) -> bool:
    """Whether ``value`` is click's internal marker for "no default" (click >= 8.3)."""
    return type(value).__name__ == "Sentinel" or repr(value) == "Sentinel.UNSET"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", _PIPE)


def _type_text(option: click.Option, ctx: click.Context) -> str:
    if option.is_flag:
        return "flag"
    if isinstance(option.type, click.Choice):
        return "one of " + ", ".join(f"`{c}`" for c in option.type.choices)
    if isinstance(option.type, (click.IntRange, click.FloatRange)):
        bounds = option.type
        kind = "integer" if isinstance(bounds, click.IntRange) else "number"
        if bounds.min is not None and bounds.max is not None:
            return f"{kind}, {bounds.min} to {bounds.max}"
        return f"{kind}, at least {bounds.min}" if bounds.min is not None else f"{kind}, at most {bounds.max}"
    metavar = option.make_metavar(ctx)
    return f"`{metavar}`" if metavar else option.type.name


def option_rows(ctx: click.Context) -> Iterator[str]:
    """The Markdown table of ``ctx.command``'s visible options."""
    options = [p for p in ctx.command.get_params(ctx) if isinstance(p, click.Option) and not p.hidden]
    if not options:
        return
    yield "**Options:**"
    yield ""
    yield "| Name | Type | Description | Default |"
    yield "| ---- | ---- | ----------- | ------- |"
    for option in options:
        names = ", ".join(f"`{name}`" for name in option.opts)
        if option.secondary_opts:
            names += " / " + ", ".join(f"`{name}`" for name in option.secondary_opts)
        help_text = _cell(option.help or "")
        yield f"| {names} | {_type_text(option, ctx)} | {help_text} | {default_text(option, ctx)} |"
    yield ""


def command_reference(command: click.Command, ctx: click.Context, level: int) -> Iterator[str]:
    """The reference of ``command`` and, below it, of each of its subcommands."""
    yield f"{'#' * level} {ctx.command_path}"
    yield ""
    yield inspect.cleandoc(command.help or "")
    yield ""
    yield "**Usage:**"
    yield ""
    yield "```text"
    yield f"{ctx.command_path} {' '.join(command.collect_usage_pieces(ctx))}"
    yield "```"
    yield ""
    yield from option_rows(ctx)
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            # The command's own context settings (dealer's -h): click keeps the help option it first makes.
            with click.Context(sub, info_name=name, parent=ctx, **sub.context_settings) as sub_ctx:
                yield from command_reference(sub, sub_ctx, level + 1)


def cli_reference() -> str:
    """The whole ``ddsbind`` command-line reference as Markdown."""
    from ddsbind.cli import main

    with click.Context(main, info_name="ddsbind", **main.context_settings) as ctx:
        return "\n".join(command_reference(main, ctx, 2))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Put the generated CLI reference where the page has the marker."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, cli_reference())
    return markdown


def on_post_build(config: Any) -> None:
    """Write the search index as a script and the highlighting stylesheet into the built site."""
    from pygments.formatters import HtmlFormatter

    site = config["site_dir"]
    index = os.path.join(site, "search", "search_index.json")
    if os.path.exists(index):
        with open(index, encoding="utf-8") as f:
            data = json.load(f)
        with open(os.path.join(site, "search", "search_index.js"), "w", encoding="utf-8") as f:
            f.write("var ddsbindSearchIndex = ")
            json.dump(data, f, ensure_ascii=False)
            f.write(";\n")
    os.makedirs(os.path.join(site, "css"), exist_ok=True)
    with open(os.path.join(site, "css", "pygments.css"), "w", encoding="utf-8") as f:
        f.write(HtmlFormatter(style="default").get_style_defs(".highlight") + "\n")
