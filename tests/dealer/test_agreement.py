"""Agreement with Debian's dealer (/usr/games/dealer), the oracle: the same output on the same deals, and statistics.

Byte for byte: Debian's dealer deals with its own generator, so each script
is run twice by dealer with the same seed -- once as written, once with
``condition 1`` and ``action printoneline`` appended (dealer keeps the last
condition and the last action list, and the shuffles do not depend on
either) to list every deal it generated -- and ddsbind runs the script over
exactly those deals (``run(deals=...)``).  The two outputs must be equal
byte for byte but for the ``Time needed`` line.  Statistically: with its own
deals, ddsbind's acceptance rates, averages and frequencies agree with
dealer's within 5 standard errors.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ddsbind.dealer import parse, run
from ddsbind.dealer.run import finish, load_script
from tests.support import dealer_summary, oneline_deals

DEALER = shutil.which("dealer") or ("/usr/games/dealer" if Path("/usr/games/dealer").exists() else None)
pytestmark = pytest.mark.skipif(DEALER is None, reason="Debian's dealer is not installed (apt-get install dealer)")

N = 200_000

SCRIPTS = {
    "1NT opener": """generate {n}
condition hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332 - 5xxx - x5xx)
action average hcp(south), average spades(south), average losers(north), frequency (clubs(south), 0, 7)
""",
    "predealt south": """generate {n}
predeal south SAQ542, HKJ87, D32, CAK
west1c = hcp(west) > 11 && clubs(west) >= 3
condition west1c && diamonds(north) >= 6 && hcp(north) > 5
action average hcp(north), average controls(east), average c13(west), average top3(north, diamonds),
  frequency (hcp(east), 0, 12)
""",
    "weak two": """generate {n}
condition shape(east, xx6x + x6xx) && hcp(east) >= 6 && hcp(east) <= 10 && !(hascard(east, AS) || losers(east) < 6)
action average pt9(east), average (hcp(west) > 12 ? 1 : 0) * 100, average (hcp(north) + 7) / 3 % 5
""",
}


def parse_dealer(text: str) -> tuple[int, int, list[float], list[dict[str, int]]]:
    generated, produced = dealer_summary(text)
    body = text.split("Generated ")[0]
    averages = [float(x) for x in re.findall(r"^(-?[\d.e+-]+)$", body, flags=re.MULTILINE)]
    frequencies = []
    for block in body.split("Frequency :")[1:]:
        rows = dict(re.findall(r"^\s*(\w+)\t\s*(\d+)$", block, flags=re.MULTILINE))
        frequencies.append({k: int(v) for k, v in rows.items()})
    return generated, produced, averages, frequencies


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_agrees_with_dealer(tmp_path: Path, name: str) -> None:
    """Acceptance rate, averages and frequency shares agree with dealer's within 5 standard errors."""
    text = SCRIPTS[name].format(n=N)
    path = tmp_path / "s.dl"
    path.write_text(text)
    theirs = subprocess.run([DEALER, "-s", "17", str(path)], capture_output=True, text=True, check=True).stdout
    gen, prod, averages, freqs = parse_dealer(theirs)
    assert gen == N
    script = parse(text)
    result = run(script, 17, threads=2, keep=True)
    assert result.generated == N
    p = (prod + result.produced) / (2 * N)
    se = math.sqrt(2 * p * (1 - p) / N)
    assert abs(prod / N - result.produced / N) < 5 * se + 1e-9
    from ddsbind.dealer.dealing import Hands
    from ddsbind.dealer.language import Frame

    frame = Frame(Hands(result.deals))
    rows = np.arange(result.produced, dtype=np.intp)
    averaged = [a for a in script.actions if a.kind == "average"]
    assert len(averaged) == len(averages)
    for action, theirs_mean in zip(averaged, averages, strict=True):
        values = action.exprs[0](frame, rows).astype(float)
        assert math.isclose(values.mean(), result.sums[script.actions.index(action)] / result.produced)
        se = math.sqrt(values.var() / result.produced + values.var() / prod) + 1e-9
        assert abs(values.mean() - theirs_mean) < 5 * se + 1e-5, (name, action.exprs, theirs_mean)
    freq_actions = [(i, a) for i, a in enumerate(script.actions) if a.kind == "frequency"]
    for (i, action), theirs_rows in zip(freq_actions, freqs, strict=True):
        low = action.bounds[0]
        ours = result.counts[i]
        for key, count in theirs_rows.items():
            index = 0 if key == "Low" else len(ours) - 1 if key == "High" else int(key) - low + 1
            q = (count + ours[index]) / (prod + result.produced)
            se = math.sqrt(q * (1 - q) * (1 / prod + 1 / result.produced)) + 1e-9
            assert abs(count / prod - ours[index] / result.produced) < 5 * se, (name, key)


EXAMPLES = Path("/usr/share/doc/dealer/examples")
#: The manual's complete "you hold" example (Manual/input.html, "An example"), as printed there.
MANUAL_EXAMPLE = """generate   10000
produce    25
vulnerable ew
dealer     west
predeal    south SAQ542, HKJ87, D32, CAK
west1n = shape(west, any 4333 + any 4432 + any 5332 - 5xxx - x5xx) &&
         hcp(west)>14 && hcp(west)<18
west1h = hearts(west)>= 5
west1s = spades(west)>= 5
west1d = diamonds(west)>clubs(west) || ((diamonds(west)==clubs(west))==4)
west1c = (not west1n) && hcp(west)>10 && clubs(west)>=3
         && (not west1h) && (not west1s) && (not west1d)
north2d = (hcp(north)>5 && hcp(north)<12) &&
          shape(north, xx6x + xx7x - any 4xxx - any 5xxx)
condition west1c && north2d
action printall
"""
#: Scripts exercising what the examples do not: every print format, print() of one and three seats, rnd-free
#: functions of the manual (cccc, quality, controls, losers, top/c13), defines, ?:, frequency 2-D, printes.
EXTRA_SCRIPTS = {
    "three_seats.dl": "produce 7\ncondition hcp(south) > 12\naction print(east, south, west)\n",
    "evaluation_all.dl": (
        'produce 3000\naction printes(cccc(north), " ", cccc(east), " ", cccc(south), " ", cccc(west), " ", '
        'quality(north, spades), " ", quality(east, hearts), " ", quality(south, diamonds), " ", '
        "quality(west, clubs), \\n)\n"
    ),
    "formats.dl": (
        "produce 12\ndealer south\nvulnerable ns\nx = top3(east) * 2 + c13(west, hearts)\n"
        "condition shape(east, any 5431 5332 + 4333) or hascard(west, TC)\n"
        "action printcompact(x), printoneline(hcp(north) > 10 ? controls(north) : 0 - losers(south)),\n"
        "  printew, printpbn,\n"
        '  printall, frequency "fx" (x, 2, 12, spades(north), 1, 5), average "c" c13(north) % 7,\n'
        "  frequency (tens(south) - jacks(north), -2, 2)\n"
    ),
    "empty_average.dl": 'generate 300\ncondition hcp(north) > 37\naction average "none" hcp(south)\n',
    "shapes.dl": "produce 5\ncondition shape(north, 4333 any 5332 - 5xxx)\naction printoneline\n",
    "replaced.dl": (
        "generate 500\ngenerate 3\nproduce 400\nproduce 2\naction printall\naction printoneline\n"
        "condition hcp(north) > 30\ncondition hcp(north) > 5\n"
    ),
    "empty_action.dl": "generate 100\ncondition hcp(east) > 10\naction\n",
}


def dealer(*args: str, stdin: str | None = None) -> str:
    """Debian's dealer's standard output."""
    assert DEALER is not None
    return subprocess.run([DEALER, *args], capture_output=True, text=True, check=False, input=stdin).stdout


def dealers_deals(tmp_path: Path, text: str, seed: int, n: int, *flags: str) -> np.ndarray:
    """The ``n`` deals dealer generates for script ``text`` and ``seed`` (its condition and actions replaced)."""
    listing = tmp_path / "all-deals.dl"
    listing.write_text(text + "\ncondition 1\naction printoneline\n", encoding="utf-8")
    return oneline_deals(dealer("-s", str(seed), "-g", str(n), "-p", str(n), *flags, str(listing)))


def without_time(text: str) -> str:
    return re.sub(r"^Time needed .*\n", "", text, flags=re.M)


def ours_on(path: Path, deals: np.ndarray, seed: int, *, summary: bool = True, **options: object) -> str:
    script, source = load_script(path)
    out = io.StringIO()
    result = run(script, seed, deals=deals, out=out, source=source, **options)  # type: ignore[arg-type]
    finish(script, result, out, summary=summary)
    return out.getvalue()


def _script_cases() -> list[tuple[str, str]]:
    cases = [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in sorted(EXAMPLES.glob("Descr.*"))]
    cases += [("Test.distribution", (EXAMPLES / "Test.distribution").read_text())] if EXAMPLES.exists() else []
    cases.append(("manual.dl", MANUAL_EXAMPLE))
    cases += sorted(EXTRA_SCRIPTS.items())
    return cases


@pytest.mark.parametrize(("name", "text"), _script_cases(), ids=[c[0] for c in _script_cases()])
def test_same_deals_same_output_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str):
    """Every example script of Debian's, the manual's and ours prints what dealer prints on the same deals."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    seed, n = 7, 20_000
    deals = dealers_deals(tmp_path, text.removeprefix("\ufeff"), seed, n)
    assert len(deals) == n  # -g overrides the script
    theirs = dealer("-s", str(seed), "-g", str(n), name)
    assert theirs.count("Generated ") == 1, theirs[-300:]
    ours = ours_on(Path(name), deals, seed)
    assert without_time(ours) == without_time(theirs)


@pytest.mark.parametrize(("flag", "option"), [("-q", {"quiet_pbn": True}), ("-v", {"summary": False}), ("-u", {})])
def test_flags_print_what_dealer_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str, option: dict):
    """-q (no PBN), -v (no closing lines) and -u (no change) leave the output as dealer's flags leave it."""
    monkeypatch.chdir(tmp_path)
    text = "produce 4\ncondition hcp(west) > 9\naction printpbn, printoneline(hcp(west))\n"
    Path("f.dl").write_text(text)
    deals = dealers_deals(tmp_path, text, 3, 400)
    theirs = dealer("-s", "3", "-g", "400", flag, "f.dl")
    assert without_time(ours_on(Path("f.dl"), deals, 3, **option)) == without_time(theirs)


def test_standard_input_names_the_file_as_dealer_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A script read from standard input prints dealer's PBN Event line ("file (null)") and the same deals."""
    text = "produce 2\naction printpbn\n"
    deals = dealers_deals(tmp_path, text, 5, 2)
    theirs = dealer("-s", "5", stdin=text)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    script, source = load_script("-")
    out = io.StringIO()
    finish(script, run(script, 5, deals=deals, out=out, source=source), out)
    assert without_time(out.getvalue()) == without_time(theirs)


@pytest.mark.parametrize("swap", [2, 3])
def test_swapping_arranges_hands_as_dealer_does(tmp_path: Path, swap: int):
    """-2/-3 follow each deal with dealer's rearrangements of East, South and West, in dealer's order."""
    from ddsbind.dealer.dealing import SWAPS

    text = "generate 60\nproduce 60\naction printoneline\n"
    (tmp_path / "s.dl").write_text(text)
    swapped = oneline_deals(dealer("-s", "11", f"-{swap}", str(tmp_path / "s.dl")))
    arrangements = SWAPS[swap]
    base = swapped[:: len(arrangements)]  # each shuffle, then its rearrangements
    expected = arrangements[:, base].transpose(1, 0, 2).reshape(-1, 52)
    assert swapped.shape == (60, 52)
    assert np.array_equal(swapped, expected)


def test_dealer_differs_where_docs_say_summary_after_pbn(tmp_path: Path):
    """docs/dealer-differences.md: closing lines follow any count of printpbn deals; dealer: not after an odd one."""
    (tmp_path / "p.dl").write_text("produce 3\naction printpbn\n")
    assert "Generated" not in dealer("-s", "1", str(tmp_path / "p.dl"))
    out = io.StringIO()
    script = parse("produce 3\naction printpbn\n")
    finish(script, run(script, 1, out=out), out)
    assert "Generated 3 hands\nProduced 3 hands\n" in out.getvalue()


def test_dealer_differs_where_docs_say_imps():
    """docs/dealer-differences.md: imps() follows the WBF scale at 420 (9) and 1200..1290 (15), dealer does not."""
    from ddsbind.dealer.scoring import imps

    values = [370, 420, 430, 1100, 1200, 1290, 1300]
    script = "produce 1\naction printes(" + ', " ", '.join(f"imps({v})" for v in values) + ", \\n)\n"
    theirs = [int(x) for x in dealer("-s", "1", stdin=script).split("\n")[0].split()]
    assert imps(values).tolist() == [9, 9, 10, 15, 15, 15, 16]
    assert theirs == [9, 10, 10, 15, 16, 16, 16]


def test_dealer_differs_where_docs_say_altcount(tmp_path: Path):
    """docs/dealer-differences.md: altcount weights count the cards the manual says (ace first); dealer's do not."""
    text = "altcount 0 1 1 1 1\nproduce 300\naction printoneline(pt0(north))\n"
    (tmp_path / "a.dl").write_text(text)
    output = dealer("-s", "1", str(tmp_path / "a.dl"))
    deals = oneline_deals(output)
    theirs = [int(line.split()[-1]) for line in output.splitlines() if line.startswith("n ")]
    honours = np.isin(np.arange(52) % 13, [0, 1, 2, 3])
    manual = ((deals == 0) & honours).sum(axis=1)
    ours = ours_on(tmp_path / "a.dl", deals, 1)
    assert [int(line.split()[-1]) for line in ours.splitlines() if line.startswith("n ")] == manual.tolist()
    assert theirs != manual.tolist()


def test_dealer_differs_where_docs_say_predeal_lengths(tmp_path: Path):
    """docs/dealer-differences.md: predeal spades(north)==1 deals North one spade; dealer parses and ignores it."""
    text = "predeal spades(north)==1\nproduce 50\naction printoneline\n"
    (tmp_path / "p.dl").write_text(text)
    theirs = oneline_deals(dealer("-s", "2", str(tmp_path / "p.dl")))
    assert ((theirs[:, :13] == 0).sum(axis=1) != 1).any()
    result = run(parse(text), 2, keep=True)
    assert result.deals is not None and ((result.deals[:, :13] == 0).sum(axis=1) == 1).all()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "text"),
    [c for c in _script_cases() if c[0] not in EXTRA_SCRIPTS],
    ids=[c[0] for c in _script_cases() if c[0] not in EXTRA_SCRIPTS],
)
def test_own_deals_agree_statistically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str):
    """With its own deals, each example's acceptance rate is dealer's within 5 standard errors (+0.002)."""
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(text)
    n = 40_000
    theirs = dealer("-s", "9", "-g", str(n), name)
    gen, prod = dealer_summary(theirs)
    script, _ = load_script(name)
    result = run(script, 9, generate=n, threads=2)
    p_theirs, p_ours = prod / gen, result.produced / result.generated
    pooled = (prod + result.produced) / (gen + result.generated)
    se = math.sqrt(pooled * (1 - pooled) * (1 / gen + 1 / result.generated))
    assert abs(p_theirs - p_ours) <= 5 * se + 0.002, (name, p_theirs, p_ours)
