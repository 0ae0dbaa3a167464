"""Names in parts and in Latin letters (core.names): the outputs of the national standards, as
the packages that hold their tables give them."""

import pytest

from core.names import (
    FAMILY_FIRST,
    GIVEN_FIRST,
    RUSSIAN,
    UKRAINIAN,
    first_and_last,
    joined,
    latin,
    parts_of,
    scheme_for,
)


@pytest.mark.parametrize(
    "cyrillic, expected",
    [
        # The 2010 national system (Cabinet of Ministers resolution no. 55), its own examples'
        # rules: Є, Ї, Й, Ю, Я word-initially Ye, Yi, Y, Yu, Ya, else ie, i, i, iu, ia; зг zgh.
        ("Олександр Шевченко", "Oleksandr Shevchenko"),
        ("Юлія Ґудзь", "Yuliia Gudz"),
        ("Євген Згурський", "Yevhen Zghurskyi"),
        ("Їжакевич Юрій", "Yizhakevych Yurii"),
        ("Наталія Лук’яненко", "Nataliia Lukianenko"),  # the apostrophe is not spelled
    ],
)
def test_ukrainian_national_system(cyrillic, expected):
    assert latin(cyrillic, UKRAINIAN) == expected


@pytest.mark.parametrize(
    "cyrillic, expected",
    [
        # ICAO Doc 9303, the Russian passports' table since 2014: ю iu, я ia, щ shch, ъ ie,
        # ё e, ы y, ь not spelled.
        ("Юлия Щербакова", "Iuliia Shcherbakova"),
        ("Пётр Объедков", "Petr Obieedkov"),
        ("Эдуард Ильин", "Eduard Ilin"),
        ("Алексей Хрущёв", "Aleksei Khrushchev"),
    ],
)
def test_russian_passport_system(cyrillic, expected):
    assert latin(cyrillic, RUSSIAN) == expected


@pytest.mark.parametrize("scheme", [UKRAINIAN, RUSSIAN])
def test_a_name_in_latin_script_stays_as_it_is(scheme):
    assert latin("Łukasz Żółć", scheme) == "Łukasz Żółć"
    assert latin("Jan van den Berg", scheme) == "Jan van den Berg"
    assert latin("", scheme) == ""


def test_the_schemes_differ_where_the_choice_matters():
    # Word-initial Ю: Yu in Ukraine's system, Iu in Russia's passports.
    assert latin("Юрко Зеленюк", UKRAINIAN) == "Yurko Zeleniuk"
    assert latin("Юрко Зеленюк", RUSSIAN) == "Iurko Zeleniuk"


@pytest.mark.parametrize(
    "text, country, language, scheme",
    [
        ("Юлія Ґудзь", "", "en", UKRAINIAN),  # і and ґ are Ukrainian letters only
        ("Юлія Ґудзь", "Russia", "ru", UKRAINIAN),
        ("Пётр Объедков", "Ukraine", "uk", RUSSIAN),  # ё and ъ are Russian letters only
        ("Юрко Зеленюк", "Ukraine", "en", UKRAINIAN),
        ("Юрко Зеленюк", "UA", "en", UKRAINIAN),
        ("Юрко Зеленюк", " україна ", "pl", UKRAINIAN),
        ("Юрко Зеленюк", "", "uk", UKRAINIAN),  # a tournament printed in Ukrainian
        ("Юрко Зеленюк", "Poland", "en", RUSSIAN),
        ("Юрко Зеленюк", "", "ru", RUSSIAN),
    ],
)
def test_which_scheme(text, country, language, scheme):
    assert scheme_for(text, country=country, language=language) == scheme


@pytest.mark.parametrize(
    "name, parts",
    [
        ("Jan van den Berg", ("Jan", "van den Berg")),
        ("Anna Maria  van Dijk", ("Anna Maria", "van Dijk")),
        ("Maria de la Cruz", ("Maria", "de la Cruz")),
        ("Ludwig von Beethoven", ("Ludwig", "von Beethoven")),
        ("Luca Di Stefano", ("Luca", "Di Stefano")),
        ("Van Morrison", ("Van", "Morrison")),  # a particle is never the whole first name
        ("Юлія Ґудзь", ("Юлія", "Ґудзь")),
        ("Щербаков", ("", "Щербаков")),
        ("  ", ("", "")),
    ],
)
def test_first_and_last(name, parts):
    assert first_and_last(name) == parts


def test_joined():
    assert joined("Jan", "van den Berg") == "Jan van den Berg"
    assert joined("", " Щербаков ") == "Щербаков"
    assert joined("Anna", "") == "Anna"


# Issue 37: a player's Latin name follows the player's own language where it is known.


@pytest.mark.parametrize(
    "country, language, spelled",
    [
        # A Russian player in a Ukrainian-language tournament: the Russian passports' table
        # (ICAO Doc 9303: и is i), not the Ukrainian national system (и is y: "Smyrnov, Vyktor").
        ("RU", "uk", "Viktor Smirnov"),
        ("Russia", "uk", "Viktor Smirnov"),
        (" Россия ", "uk", "Viktor Smirnov"),
        ("RUS", "uk", "Viktor Smirnov"),
        ("Rosja", "pl", "Viktor Smirnov"),
        # A Ukrainian player in a Russian-language tournament: the Ukrainian national system.
        ("UA", "ru", "Vyktor Smyrnov"),
        ("Україна", "en", "Vyktor Smyrnov"),
        # Another or no country: the tournament's language, as before.
        ("", "uk", "Vyktor Smyrnov"),
        ("Poland", "uk", "Vyktor Smyrnov"),
        ("", "ru", "Viktor Smirnov"),
        ("Poland", "en", "Viktor Smirnov"),
        # Belarus: no installed package holds the Belarusian national system, so the
        # tournament's language decides (the Russian table outside a Ukrainian tournament).
        ("BY", "en", "Viktor Smirnov"),
    ],
)
def test_the_players_own_country_chooses_the_standard(country, language, spelled):
    name = "Виктор Смирнов"
    assert latin(name, scheme_for(name, country=country, language=language)) == spelled


def test_the_letters_still_win_over_the_country():
    # і and ґ are Ukrainian only, ё Russian only: whatever the country says.
    assert scheme_for("Юлія Ґудзь", country="RU", language="ru") == UKRAINIAN
    assert scheme_for("Пётр Объедков", country="UA", language="uk") == RUSSIAN


@pytest.mark.parametrize(
    "name, parts",
    [
        # Issue 37: "Щербаков Алексей" in a Russian list is family name first.
        ("Щербаков Алексей", ("Алексей", "Щербаков")),
        ("Щербаков Алексей Викторович", ("Алексей Викторович", "Щербаков")),
        ("Chen Wei", ("Wei", "Chen")),
        ("van den Berg Jan", ("Jan", "van den Berg")),
        ("de la Cruz Maria", ("Maria", "de la Cruz")),
        ("Van Morrison", ("Morrison", "Van")),  # the first name is never empty
        ("Щербаков", ("", "Щербаков")),
        ("  ", ("", "")),
    ],
)
def test_first_and_last_family_name_first(name, parts):
    assert first_and_last(name, FAMILY_FIRST) == parts


def test_the_desks_rule_is_the_first_name_first():
    # Nothing said: the last word is the last name (docs: Latin names).
    assert first_and_last("Щербаков Алексей") == ("Щербаков", "Алексей")
    assert first_and_last("Щербаков Алексей", GIVEN_FIRST) == ("Щербаков", "Алексей")


def test_joined_in_either_order():
    assert joined("Wei", "Chen", FAMILY_FIRST) == "Chen Wei"
    assert joined("Алексей", "Щербаков", FAMILY_FIRST) == "Щербаков Алексей"
    assert joined("Wei", "Chen", GIVEN_FIRST) == "Wei Chen"
    assert joined("", "Chen", FAMILY_FIRST) == "Chen"


def test_parts_of_keeps_typed_parts_and_splits_a_whole_name():
    assert parts_of("Юра", "Юрий", "Щербаков") == ("Юрий", "Щербаков")
    assert parts_of("Jan van den Berg", "", "") == ("Jan", "van den Berg")
    assert parts_of("Chen Wei", "", "Chen") == ("", "Chen")
