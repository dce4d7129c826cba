"""The DDSError tree: every DDS code has its class, code and DDS's own message."""

from __future__ import annotations

import pytest

from ddsbind import dll, errors


def _return_codes() -> dict[str, int]:
    return {n: getattr(dll, n) for n in dir(dll) if n.startswith("RETURN_") and n != "RETURN_NO_FAULT"}


def test_every_return_code_has_its_own_class():
    """A caller can catch each DDS failure by class: no code falls back to the bare DDSError."""
    codes = _return_codes()
    assert len(codes) >= 26
    classes = set()
    for name, code in codes.items():
        cls = errors.error_class(code)
        assert cls is not errors.DDSError, name
        assert cls.code == code, name
        classes.add(cls)
    assert len(classes) == len(codes)


def test_dll_spec_codes_minus_1_to_minus_15_are_mapped():
    """The DLL specification's codes -1..-15 (except the never-defined -6) all map to classes."""
    for code in [c for c in range(-15, 0) if c != -6]:
        assert errors.error_class(code) is not errors.DDSError, code


def test_message_is_dds_text_plus_detail():
    """The exception text carries DDS's ErrorMessage, the code, the function and ddsbind's detail."""
    e = errors.DuplicateCardsError("SA held twice", function="SolveBoard")
    line = dll.ffi.new("char[80]")
    dll.ErrorMessage(dll.RETURN_DUPLICATE_CARDS, line)
    assert e.dds_message == dll.ffi.string(line).decode()
    assert str(e) == f"SolveBoard: {e.dds_message} (DDS code -4): SA held twice"
    assert e.code == -4 and e.function == "SolveBoard" and e.detail == "SA held twice"


def test_builtin_bases():
    """Bad input is a ValueError and thread trouble a RuntimeError, so generic handlers work."""
    assert issubclass(errors.PBNError, ValueError)
    assert issubclass(errors.CardCountError, ValueError)
    assert issubclass(errors.ThreadCreateError, RuntimeError)
    assert issubclass(errors.UnknownFaultError, RuntimeError)
    assert issubclass(errors.ArgumentError, TypeError)


def test_check_raises_the_mapped_class():
    """check() passes success through and raises the class of any failure code."""
    assert errors.check(dll.RETURN_NO_FAULT, "SolveBoard") == dll.RETURN_NO_FAULT
    with pytest.raises(errors.TooManyTablesError) as info:
        errors.check(dll.RETURN_TOO_MANY_TABLES, "CalcAllTables")
    assert info.value.function == "CalcAllTables"


def test_unknown_code_still_raises():
    """A code DDS may add later still raises a DDSError carrying that code."""
    with pytest.raises(errors.DDSError) as info:
        errors.check(-999, "SolveBoard")
    assert type(info.value) is errors.DDSError  # no subclass claims a code DDS does not have
    assert info.value.code == -999


def test_errors_carry_position_and_survive_pickling():
    """index/card/field reach the message and survive pickling (errors cross process pools intact)."""
    import pickle

    e = errors.DuplicateCardsError("SA is held by both N and E", function="CalcAllTables", card="SA").at(3, "table")
    assert e.detail == "table 4: SA is held by both N and E"  # index 3 from 0: the fourth table, as users count
    assert str(e).endswith("(DDS code -4): table 4: SA is held by both N and E")
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is errors.DuplicateCardsError
    assert (back.index, back.item, back.card, back.function, back.code, str(back)) == (
        3, "table", "SA", "CalcAllTables", -4, str(e)
    )  # fmt: skip
    nested = errors.PlayFaultError("SK is not held by E", card="SK").at(5, "play").at(2, "board")
    assert nested.detail == "board 3: play 6: SK is not held by E"
