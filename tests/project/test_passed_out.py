"""One passed-out value: no second spelling of "passed out" in ``ddsbind/`` (issue 45, item 1).

A passed-out board is :data:`ddsbind.scoring.PASSED_OUT` (``str()`` ``"Pass"``)
and a pass :data:`ddsbind.scoring.Call.PASS`; the word ``"Pass"`` is read and
written in ``scoring.py`` alone (``Call.parse``/``Call.__str__``,
``Contract.parse_or_pass``, ``PassedOut.__str__``).  Read from the source with
``ast`` (nothing is imported), two spellings are refused elsewhere:

* the text ``"pass"`` in any case as a string of the code (a comparison
  ``call == "Pass"``, an auction built as ``["Pass"] * 3``, a table
  ``{"P": "Pass"}``); docstrings aside;
* a name, attribute, argument or keyword ``passed_out`` (the old flag), but
  in ``record.py``, where the deprecated ``GameRecord(passed_out=...)`` and
  ``GameRecord.passed_out`` live.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ddsbind

ROOT = Path(ddsbind.__file__).resolve().parent
#: The one home of the word "Pass": the reader and writer of calls and of the passed-out value.
PASS_HOME = "scoring.py"
#: The one home of the deprecated passed_out flag (GameRecord's shim).
FLAG_HOME = "record.py"
#: Modules whose "pass" is another thing's word, not a record's passed-out board; each with why.
ALLOWED = {
    "optimum.py": "DDS's DealerPar answers 'pass' for a table where nobody makes anything: DDS's own text",
    "formats/pbntables.py": "reads a ParContract tag's value (par, not a game's contract) as a file writes it",
}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def pass_texts(source: str) -> list[int]:
    """Lines of ``source`` holding the string ``"pass"`` (any case, spaces around it) outside a docstring."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.strip().lower() == "pass"
        and id(node) not in docs
    ]


def _name(node: ast.AST) -> str | None:
    """The name a node gives or uses: a variable, attribute, parameter, keyword or function."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.arg | ast.keyword):
        return node.arg
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    return None


def flag_names(source: str) -> list[int]:
    """Lines of ``source`` naming ``passed_out``: a variable, attribute, parameter, keyword or function."""
    return [node.lineno for node in ast.walk(ast.parse(source)) if _name(node) == "passed_out"]


def _modules() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(ROOT.rglob("*.py"))}


def test_the_word_pass_is_read_and_written_in_one_place():
    """Without this, code comparing calls or contracts with "Pass" would come back beside Call.PASS and PASSED_OUT."""
    found = {
        f"{name}:{line}"
        for name, source in _modules().items()
        if name != PASS_HOME and name not in ALLOWED
        for line in pass_texts(source)
    }
    assert not found, f"'Pass' as text outside {PASS_HOME} (use Call.PASS, PASSED_OUT or str() of them): {found}"


def test_no_passed_out_flag_outside_the_records_shim():
    """Without this, a passed_out flag would again stand beside the contract PASSED_OUT, two answers to one question."""
    found = {
        f"{name}:{line}" for name, source in _modules().items() if name != FLAG_HOME for line in flag_names(source)
    }
    assert not found, f"passed_out outside {FLAG_HOME} (test contract is PASSED_OUT): {found}"


def test_the_scan_sees_each_spelling_and_the_homes_hold_them():
    """Without this, a scan that found nothing (a broken walk, wrong paths) would pass whatever the code said."""
    planted = (
        'def f(c, rec):\n    """Pass."""\n    if c == "Pass" or c in ("PASS", "X"):\n        return ["pass"] * 3\n'
    )
    assert pass_texts(planted) == [3, 3, 4]  # the docstring is no spelling
    assert flag_names("rec.passed_out = True\nGameRecord(passed_out=True)\ndef g(passed_out): ...\n") == [1, 2, 3]
    modules = _modules()
    assert len(modules) > 50 and "match.py" in modules and "board/boards.py" in modules
    assert pass_texts(modules[PASS_HOME]), f"{PASS_HOME} no longer writes 'Pass': the home moved, move PASS_HOME"
    assert flag_names(modules[FLAG_HOME]), f"{FLAG_HOME} holds no deprecated passed_out: drop FLAG_HOME's exemption"
    for name in ALLOWED:
        assert pass_texts(modules[name]), f"{name} no longer needs its exemption: remove it from ALLOWED"
