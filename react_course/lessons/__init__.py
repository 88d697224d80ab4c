"""Lesson props: scripted scenes that one lesson stages and the tests replay.

Each file is a situation, not a part of the agent: lesson 04's shop run with
two slips, lesson 06's incidents, lesson 08's long tasks, lesson 10's
capstone breaks and workflow, lesson 11's interview questions, design rubric
and glossary; and the course's scripted demo model with its plans, lesson
12's plan-and-execute and reflection, and the frameworks it compares. They
live in the library so that a notebook and a test tell the same story.
The files, in reading order, are listed in ``README.md`` beside this one.
"""
