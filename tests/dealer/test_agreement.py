"""Statistical agreement with Debian's dealer: acceptance rates, averages and frequencies of a few scripts."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ddsbind.dealer import parse, run

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
    generated = int(re.search(r"Generated (\d+) hands", text).group(1))
    produced = int(re.search(r"Produced (\d+) hands", text).group(1))
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
