"""Workbooks as .xlsx (openpyxl, write-only). `kit` writes (cell kinds and number formats,
sheets, text that never reads as a formula); each file has its own module, which returns the
workbook as bytes: `tournament` (with the hands' sheets from `hands`), `ema` (the EMA results
sheet), and `club` (a club rating's workbook)."""
