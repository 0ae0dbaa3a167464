"""The filled protocol's rows split into pages (printing.pdf.fit.row_pages): a page holds what its
room allows, and the closing lines (final scores, signatures) never stand alone on the last page
when some rows can go over with them."""

from printing.pdf import fit


def test_rows_split_into_pages_keep_the_closing_lines_company():
    assert fit.row_pages([10] * 5, 100, 100, 20) == [(0, 5)]
    # 30 rows of 10 pt, 100 pt a page: 10 a page; the closing 50 pt do not fit under the last
    # ten, so three go over with them
    assert fit.row_pages([10] * 30, 100, 100, 50) == [(0, 10), (10, 20), (20, 27), (27, 30)]
    # a smaller first page (the title above), the closing fitting under the last rows
    assert fit.row_pages([10] * 12, 60, 100, 40) == [(0, 6), (6, 12)]
    # a row taller than a page still takes one
    assert fit.row_pages([150, 10], 100, 100, 0) == [(0, 1), (1, 2)]
