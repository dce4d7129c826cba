"""What DDS's SolveBoard example does, through ddsbind's DLL layer, line by line.

For three deals, build a ``struct deal`` by hand (trump, leader, no cards on
the current trick, ``remainCards`` as rank bit masks), call
``SolveBoard(dl, target=-1, solutions=3, mode=0, &fut, threadIndex=0)`` and
print every card with its score -- the tricks the side on lead takes with it.

The C original is, in outline::

    struct deal dl;
    struct futureTricks fut;
    dl.trump = trump[h]; dl.first = first[h];
    for (k = 0; k < 3; k++) { dl.currentTrickSuit[k] = 0; dl.currentTrickRank[k] = 0; }
    for (hand...) for (suit...) dl.remainCards[hand][suit] = holdings[h][suit][hand];
    res = SolveBoard(dl, -1, 3, 0, &fut, 0);
    if (res != RETURN_NO_FAULT) { ErrorMessage(res, line); printf("DDS error: %s\\n", line); }
"""

from ddsbind import dll

# Three deals with their trump and leader (0=S 1=H 2=D 3=C 4=NT; 0=N 1=E 2=S 3=W).
# Each deal is PBN text from North (hands N E S W, suits S.H.D.C); main() turns each
# holding into DDS's rank bit mask, remainCards[hand][suit].
DEALS = [
    (4, 0, "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"),
    (4, 1, "N:AK96.KQ8.A98.K63 QJT5432.T.6.QJ82 .J97543.K7532.94 87.A62.QJT4.AT75"),
    (1, 2, "N:73.QJT.AQ54.T752 QT6.876.KJ9.AQ84 5.A95432.7632.K6 AKJ9842.K.T8.J93"),
]
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"


def holding_mask(text: str) -> int:
    """A holding such as 'KQ9' as DDS's bit mask: bit r for rank r (2..14)."""
    mask = 0
    for ch in text:
        mask |= 1 << (RANK_CHARS.index(ch) + 2)
    return mask


def main() -> None:
    line = dll.ffi.new("char[80]")
    for number, (trump, first, pbn) in enumerate(DEALS, start=1):
        dl = dll.deal()
        fut = dll.futureTricks()
        dl.trump = trump
        dl.first = first
        for k in range(3):
            dl.currentTrickSuit[k] = 0
            dl.currentTrickRank[k] = 0
        for hand, cards in enumerate(pbn[2:].split()):
            for suit, holding in enumerate(cards.split(".")):
                dl.remainCards[hand][suit] = holding_mask(holding)

        res = dll.SolveBoard(dl, -1, 3, 0, fut, 0)
        if res != dll.RETURN_NO_FAULT:
            dll.ErrorMessage(res, line)
            print(f"DDS error: {dll.ffi.string(line).decode()}")
            continue

        print(f"SolveBoard, deal {number}: trump {'SHDCN'[trump]}, {'NESW'[first]} leads, {fut.cards} cards")
        for i in range(fut.cards):
            card = SUIT_CHARS[fut.suit[i]] + RANK_CHARS[fut.rank[i] - 2]
            equals = "".join(RANK_CHARS[r - 2] for r in range(14, 1, -1) if fut.equals[i] >> r & 1)
            print(f"  {card}  score {fut.score[i]:2d}" + (f"  equals {equals}" if equals else ""))


if __name__ == "__main__":
    main()
