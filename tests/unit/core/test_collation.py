"""Names in their readers' order (core.collation, issue 23): the Unicode Collation Algorithm
with the tournament language's tailoring, never character codes."""

from core.collation import collated, language_of, sort_key


def test_polish_puts_each_accented_letter_after_its_base_letter():
    names = ["Mateusz", "Łukasz", "Luna", "Lech", "Zenon", "Żaneta", "Źdźbło", "Ćma", "Cyprian"]
    assert collated(names, "pl") == [
        "Cyprian",
        "Ćma",
        "Lech",
        "Luna",
        "Łukasz",
        "Mateusz",
        "Zenon",
        "Źdźbło",
        "Żaneta",
    ]


def test_the_default_order_keeps_accents_with_their_letter():
    names = ["Zoë", "Émile", "Eva", "Łukasz", "Lars", "Luna", "Øyvind", "Oscar", "Anna"]
    assert collated(names, "en") == [
        "Anna",
        "Émile",
        "Eva",
        "Lars",
        "Łukasz",
        "Luna",
        "Oscar",
        "Øyvind",
        "Zoë",
    ]
    assert sorted(names)[-2:] == ["Øyvind", "Łukasz"]  # by character code: after Z


def test_case_decides_only_between_otherwise_equal_names():
    assert collated(["bob", "Anna", "alice", "Bea"], "en") == ["alice", "Anna", "Bea", "bob"]
    assert collated(["Anna", "anna"], "en") == ["anna", "Anna"]
    assert sort_key("Anna", "en") != sort_key("Anna\u0301", "en")


def test_latin_before_cyrillic_unless_the_language_is_russian_or_ukrainian():
    names = ["Яна", "Anna", "Борис", "Zoë"]
    assert collated(names, "en") == collated(names, "pl") == ["Anna", "Zoë", "Борис", "Яна"]
    assert collated(names, "ru") == collated(names, "uk") == ["Борис", "Яна", "Anna", "Zoë"]


def test_russian_keeps_yo_with_ye():
    """Ё is Е with an accent: it sorts among the Е names, by the letters after it."""
    assert collated(["Ёжиков", "Егоров", "Ежов", "Жуков"], "ru") == [
        "Егоров",
        "Ёжиков",
        "Ежов",
        "Жуков",
    ]


def test_ukrainian_letters_of_their_own():
    names = ["Ґалаґан", "Гуменюк", "Дорош", "Іванів", "Їжак", "Йосипенко", "Ильченко", "Євтух"]
    assert collated(names, "uk") == [
        "Гуменюк",
        "Ґалаґан",
        "Дорош",
        "Євтух",
        "Ильченко",
        "Іванів",
        "Їжак",
        "Йосипенко",
    ]


def test_language_codes_and_names_of_other_objects():
    assert language_of("pl-PL") == language_of("pl_pl") == "pl"
    assert language_of(None) == ""
    rows = [{"name": "Łukasz"}, {"name": "Marek"}, {"name": "Lena"}]
    assert [r["name"] for r in collated(rows, "pl-PL", lambda r: r["name"])] == [
        "Lena",
        "Łukasz",
        "Marek",
    ]
