"""The battle report page's reading of a stored report (RULES.md §5, §6, §9; CONTRACT.md "Battle
report"): :func:`~battles.report_view.battle.battle_view` turns any of its shapes into one
template-friendly structure.

The stored report is the engine's JSON (``battles.engine``), in one of four shapes: a fleet action
fought as an engagement of one or more days (``"type": "engagement"``: each day's report, the gauge
and pursuit dice), running the guns and garrison guns (one report with its barrage), and fireships
(``"attacks"``). The words are the engine's text report's (:mod:`battles.engine.text`), so the page
and ``simulate_battle`` say the same thing the same way. Who may see a battle is
:mod:`battles.web_selectors`' business.

Where each part lives: :mod:`.shapes` (the structures the page reads), :mod:`.sides` (the sides and
their ships, in and out of the line), :mod:`.days` (days, rounds, fire and the dice log),
:mod:`.battle` (the whole report put together, with its notes).
"""
