"""Lesson 08: what a run costs, and how to keep its context short.

Files in reading order: ``cost`` (dated prices, money as ``Decimal``, the closed
forms of a growing history), ``price_table`` (the one table of prices and cache
rules, ``data/prices.json``), ``caching`` (a run priced by each model's own cache
rules), ``context`` (history compression), ``items`` (the Responses items
compression may not split) and ``routing`` (cheaper models for simple steps).
Import each module by its full name: ``from react_course.context_cost import cost``.
"""
