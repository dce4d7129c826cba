"""Where was a played deal lost?  Double-dummy analysis of PBN game records.

    python examples/analyse_games.py [FILE.pbn]     # default: examples/data/games.pbn (or a .zrj file)

``ddsbind.formats.read_games`` reads each game's deal, contract,
declarer and play (checking every card); ``ddsbind.costly_cards`` names each
card after which the double-dummy result moved against its side, what it cost
and which cards would have kept the value; ``ddsbind.best_line`` shows how
the first trick should have gone.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ddsbind
from ddsbind.formats import read_games

DEFAULT = Path(__file__).resolve().parent / "data" / "games.pbn"


def main(path: Path) -> None:
    for game in read_games(path):
        if game.strain is None or game.leader is None:
            continue  # passed out, or no contract to analyse
        print(f"Board {game.board}: {game.contract} by {game.declarer.name}, {len(game.play)} cards played")
        costly = ddsbind.costly_cards(game.deal, game.strain, game.leader, game.play)
        for c in costly:
            better = " ".join(str(b) for b in c.better)
            print(f"  trick {c.trick:2}: {c.seat.name} played {c.card}, cost {c.cost} (kept the value: {better})")
        if not costly:
            print("  every card kept the double-dummy result")
        first = ddsbind.best_line(game.deal, game.strain, game.leader)[0]
        cards = " ".join(str(card) for card in first.cards)
        print(f"  best first trick: {cards}, won by {first.winner.name}; declarer's side takes {first.value}")
        print()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
