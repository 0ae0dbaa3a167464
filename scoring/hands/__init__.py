"""Hand by hand: the score sheet's arithmetic (RULES.md §5), plain Python like the rules."""
