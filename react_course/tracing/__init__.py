"""Lesson 09: what happened in a run, as records you can read back and step through.

``trace`` writes one structured event per step as JSON Lines (and OpenTelemetry
spans); ``viewer`` steps through a trace in a notebook or writes it as a static page.
"""
