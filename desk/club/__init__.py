"""A club rating's desk pages (issue 25), one module per area: `clubs` (the list, a new club,
its settings, its dashboard), `seasons`, `members`, `evenings` (the check-in and the draw),
`games` (recorded, corrected, confirmed, voided; the list) and `rating`; `mixins` holds the
club of the address, `forms` and `tables` the pages' forms and tables. Every write is one
service of club.services; every page is ClubRequired."""
