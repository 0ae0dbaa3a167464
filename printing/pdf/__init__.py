"""Printed paper as A4 PDFs (reportlab). `kit` draws (type, page, header and footer, table
style, labels and names fitted to their cells, `fit` measures); each document has its own
module, which returns the PDF as bytes: `protocols` (a page per table: `protocol`, `card`,
`hands_protocol`), `seating`, `standings`, `appeals`, `quick_start` (a page per role for the
desk users, the referees and each table's players), and `club` (a club rating's table and
games). The data comes from the same selectors as the public pages, so a printed total is the
published total."""
