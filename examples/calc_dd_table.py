"""What DDS's CalcDDtable example does, through ddsbind's DLL layer, line by line.

For three deals, fill a ``struct ddTableDeal`` (``cards[hand][suit]`` rank
bit masks), call ``CalcDDtable(tableDeal, &table)`` and print the 20 results:
tricks for each declarer in each strain, then the par from ``Par()``.

The C original is, in outline::

    struct ddTableDeal tableDeal;
    struct ddTableResults table;
    struct parResults pres;
    for (hand...) for (suit...) tableDeal.cards[hand][suit] = holdings[h][suit][hand];
    res = CalcDDtable(tableDeal, &table);
    res = Par(&table, &pres, vulnerable);
"""

from ddsbind import dll

DEALS = [
    (0, "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"),
    (2, "N:AK96.KQ8.A98.K63 QJT5432.T.6.QJ82 .J97543.K7532.94 87.A62.QJT4.AT75"),
    (0, "N:73.QJT.AQ54.T752 QT6.876.KJ9.AQ84 5.A95432.7632.K6 AKJ9842.K.T8.J93"),
]
RANK_CHARS = "23456789TJQKA"


def holding_mask(text: str) -> int:
    """A holding such as 'KQ9' as DDS's bit mask: bit r for rank r (2..14)."""
    mask = 0
    for ch in text:
        mask |= 1 << (RANK_CHARS.index(ch) + 2)
    return mask


def main() -> None:
    line = dll.ffi.new("char[80]")
    for number, (vulnerable, pbn) in enumerate(DEALS, start=1):
        table_deal = dll.ddTableDeal()
        table = dll.ddTableResults()
        pres = dll.parResults()
        for hand, cards in enumerate(pbn[2:].split()):
            for suit, holding in enumerate(cards.split(".")):
                table_deal.cards[hand][suit] = holding_mask(holding)

        res = dll.CalcDDtable(table_deal, table)
        if res != dll.RETURN_NO_FAULT:
            dll.ErrorMessage(res, line)
            print(f"DDS error: {dll.ffi.string(line).decode()}")
            continue

        print(f"CalcDDtable, deal {number}")
        print("        North  East South  West")
        for strain, name in enumerate(("Spades", "Hearts", "Diamonds", "Clubs", "NT")):
            row = "".join(f"{table.resTable[strain][hand]:6d}" for hand in range(4))
            print(f"{name:<8}{row}")

        res = dll.Par(table, pres, vulnerable)
        if res == dll.RETURN_NO_FAULT:
            score = dll.ffi.string(pres.parScore[0]).decode()
            contracts = dll.ffi.string(pres.parContractsString[0]).decode()
            print(f"Par: {score}  {contracts}")
        print()


if __name__ == "__main__":
    main()
