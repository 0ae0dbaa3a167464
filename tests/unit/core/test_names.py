"""Names in parts and in Latin letters (core.names): the outputs of the national standards, as
the packages that hold their tables give them."""

import pytest

from core.names import RUSSIAN, UKRAINIAN, first_and_last, joined, latin, scheme_for


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
