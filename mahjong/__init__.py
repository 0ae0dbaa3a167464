"""The ground floor: the mahjong itself, in plain Python (the standard library only).

Rule sets and their presets, one table's arithmetic, hands (riichi, Sichuan, the notation,
statistics), standings, penalties, the club rating, the session clock and the EMA weight (MERS).
Every room may import it; it imports no room and nothing of Django (tests/unit/test_layout.py).
"""
