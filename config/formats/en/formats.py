"""English dates and times as a European tournament hall reads them: 24-hour clock, day first.

Django's own "en" formats are American (m/d/Y, 2:30 p.m.); ru, uk and pl keep Django's.
"""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
MONTH_DAY_FORMAT = "j F"
FIRST_DAY_OF_WEEK = 1  # Monday
