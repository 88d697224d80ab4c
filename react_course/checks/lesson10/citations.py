"""10.uncited_claims as a spec: every number in an answer needs an observation it cites.

The key is the library's ``capstone.uncited_claims``. The lesson's trap: the invented
order's answer ("delivered 45 minutes late [1]") cites a step, but the step never said
45. The observations cross as ``[step, text]`` pairs (JSON keys are text); ``observe``
hands the student the dict of int steps the statement promises. The generated answers
join sentences with every kind of white space, with numbers whole and decimal beside
their traps (62 in 1062 and in 62.5, 3 and 9 beside 3.9, 25 beside 25.0) and citations
of steps that do not exist; some answers carry white space around them.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

from ...lessons.capstone import CITATION, NUMBER, uncited_claims
from ..generated import Draw
from ..plain import Raised
from ..spec import GENERATED, Example, Fault, Rule, Spec, define

OBS = ((1, "Order 88213: delivered 19:02 (62 minutes late); fee 25 INR."),
       (2, "More than 30 minutes late refunds the fee."), (3, "25"))
NUMBERS = ("25", "62", "3.9", "62.5", "1062", "3", "9", "0.5", "7", "25.0")
WORDS = ("fee", "km", "minutes late", "days", "INR")
GLUED = ("25INR", "(62)", "19:02", "3.9km")
GAPS = (" ", "\n", "  ", "\t", "\n\n")  # white space between sentences, not only one space

SPLIT = "Split the answer into sentences"
GAP = "followed by white space"
DECIMAL = "maybe with a decimal point"
WHOLE = "as a whole number"
MISSING = "supports nothing"
AROUND = "the white space around the answer is part of no sentence"
AS_WRITTEN = "as written"


def observe(function: Any, args: tuple) -> Any:
    answer, pairs = args
    return function(answer, {number: text for number, text in pairs})


def _show(args: tuple) -> str:
    return f"uncited_claims({args[0]!r}, {dict(args[1])!r})"


def _claimed(args: tuple) -> list[str]:
    return NUMBER.findall(CITATION.sub("", args[0]))


def _texts(args: tuple) -> list[str]:
    return [text for _, text in args[1]]


def _inside(args: tuple) -> bool:
    """A claimed number that occurs in an observation, but not as one of its whole numbers."""
    return any(n in t and n not in NUMBER.findall(t) for n in _claimed(args) for t in _texts(args))


def _gap(args: tuple) -> bool:
    return bool(re.search(r"[.!?](?: {2,}|[\t\n])", args[0].strip()))


def _missing(args: tuple) -> bool:
    return any(int(n) not in dict(args[1]) for n in CITATION.findall(args[0]))


SENTENCE_END = r"(?<=[.!?])\s+"


def variant(split: str = SENTENCE_END, strip: bool = True, number: str = NUMBER.pattern,
            citations: bool = False, found: str = "whole", every: Any = all, cited: bool = True) -> Any:
    """The key with one part swapped for a plausible wrong one: a fault recognised by its value."""
    def flags(answer: str, observations: dict) -> list[str]:
        flagged = []
        for sentence in re.split(split, answer.strip() if strip else answer):
            steps = [int(n) for n in CITATION.findall(sentence)]
            texts = [observations[n] for n in steps if n in observations] if cited else [
                *observations.values()]
            numbers = re.findall(number, sentence if citations else CITATION.sub("", sentence))
            if numbers and not every(any(_found(found, number, n, t) for t in texts) for n in numbers):
                flagged.append(sentence)
        return flagged
    return flags


def _on_a_list(found: Any) -> Any:
    return lambda args, want, got: isinstance(got, list) and found(args, want, got)


def _found(how: str, pattern: str, n: str, text: str) -> bool:
    if how == "substring":
        return n in text
    if how == "float":
        return float(n) in map(float, re.findall(pattern, text))
    return n in re.findall(pattern, text)


FAULTS = (
    Fault(AROUND, "Strip the answer before you split it: a flagged sentence has no white space around it.",
          found=lambda args, want, got: args[0] != args[0].strip() and isinstance(got, list)
          and [s.strip() for s in got] == want != got),
    Fault(GAP, "A sentence ends at . ! or ? followed by any white space: a line break, a tab, several spaces "
               "(re.split(r'(?<=[.!?])\\s+', answer), not answer.split('. ')).",
          found=lambda a, w, got: any(re.search(r"[.!?][ \t\n]*[\t\n]|[.!?] {2,}", s) for s in got) or any(
              got == variant(split=gap)(a[0], dict(a[1])) for gap in (r"(?<=[.!?]) ", r"(?<=[.!?])\s"))),
    Fault(SPLIT, "Judge each sentence on its own: split wherever ., ! or ? is followed by white space.",
          found=lambda a, w, got: any(re.search(r"[.!?]\s", s) for s in got)),
    Fault("not counting the citation numbers", "The number in [2] cites a step; it is no claim. Remove the "
          "citations before you look for numbers.", like=variant(citations=True)),
    Fault(WHOLE, "Compare whole numbers: 62 is not in 62.5, nor 25 in 25.0 (\\b sees the decimal point as a "
                 "boundary, and float() reads 25.0 as 25).",
          found=lambda a, w, got: _inside(a)),
    Fault(DECIMAL, "3.9 is one number, not 3 and 9: read digits with an optional decimal part "
                   "(\\d+(?:\\.\\d+)?), in the answer and in the observations alike.",
          like=variant(number=r"\d+")),
    Fault(DECIMAL, "A full stop after a number ends the sentence; it is no decimal point, which has "
                   "digits on both sides (\\d+(?:\\.\\d+)?).", like=variant(number=r"\d+\.?\d*")),
    Fault(WHOLE, "Compare whole numbers, as text: 62 is not in 1062, nor in 62.5. Read the observation's "
                 "numbers and look the claim's number up among them.", like=variant(found="substring")),
    Fault(WHOLE, "Compare the numbers as they are written: 25 is not 25.0, so float() finds what the "
                 "observation never says.", like=variant(found="float")),
    Fault(MISSING, "A citation of a missing step supports nothing: skip it (and do not raise).",
          found=lambda a, w, got: _missing(a) and isinstance(got, Raised)),
    Fault("every number in it", "One supported number is not enough: every number of the sentence needs one.",
          like=variant(every=any)),
    Fault("in at least one observation it cites", "Look only in the observations the sentence cites.",
          like=variant(cited=False)),
    Fault("in order", "Return the flagged sentences in the order they come in the answer.",
          found=lambda a, want, got: sorted(got) == sorted(want)),
    Fault("holds a number", "A sentence without a number (citations aside) is never flagged.",
          found=lambda a, want, got: any(not NUMBER.findall(CITATION.sub("", s)) for s in got)),
)

# An error raised is recognised only as a missing step's (elsewhere the case's own hint shows).
FAULTS = tuple(dataclasses.replace(f, found=_on_a_list(f.found)) if f.found and f.rule != MISSING else f
               for f in FAULTS)


def _ex(name: str, answer: str, observations: tuple, hint: str) -> Example:
    return Example(name, (answer, [list(pair) for pair in observations]), hint)


CAREFUL = "Refund 25 INR [3]. It arrived 62 minutes late [1], and more than 30 minutes refunds the fee [2]."
EXAMPLES = (
    _ex("the careful answer", CAREFUL, OBS, "Each number is in an observation its sentence cites."),
    _ex("a sentence without a number", "Sorry for the wait. Refund 25 INR [3].", OBS,
        "A sentence with no number makes no claim this check can test."),
    _ex("one sentence flagged of two", "Refund 25 INR [3]. It was 45 minutes late [1].", OBS,
        "Judge each sentence on its own, and return it as written."),
    _ex("an exclamation mark ends a sentence", "Sorry for the wait! It was 45 minutes late [1].", OBS,
        "A sentence ends at ., ! or ? followed by white space."),
    _ex("citation numbers are not claims", "The fee is refunded [2].", OBS,
        "The 2 in [2] is a citation, not a number the sentence claims."),
    _ex("every number needs support", "Refund 25 INR, 480 kept [3].", OBS,
        "25 is in step 3, but 480 is in no cited observation: the sentence is flagged."),
    _ex("an observation it does not cite", "It was 62 minutes late [3].", OBS,
        "62 is in step 1, but the sentence cites step 3 only."),
    _ex("62 is not in 1062", "It took 62 steps [1].", ((1, "It took 1062 steps."),),
        "Compare whole numbers: 62 is not a number of 1062."),
    _ex("62 is not in 62.5", "It was 62 minutes late [1].", ((1, "It was 62.5 minutes late."),),
        "62.5 is one number: 62 is not found in it."),
    _ex("a line break between sentences", "Refund 25 INR [3].\nIt was 45 minutes late [1].", OBS,
        "A sentence ends at . ! or ? followed by any white space, a line break too."),
    _ex("a number with a decimal point", "The shop is 3.9 km away [1].",
        ((1, "3 km by road, 9 stops by bus."),),
        "3.9 is one number, and no observation says 3.9: read the decimal part too."),
    _ex("a decimal found whole", "The shop is 3.9 km away [1]. Fee 0.5 INR [2].",
        ((1, "Distance: 3.9 km."), (2, "fee 0.5")), "3.9 is in the observation, whole: supported."),
    _ex("a step that does not exist", "Refund 25 INR [9].", OBS,
        "Step 9 is not in the observations: it supports nothing (and must not raise)."),
    _ex("in order", "Refund 99 INR. It was 7 days.", OBS, "Return the flagged sentences in their order."),
    _ex("a full stop after a number", "Per [1] the fee is 25.", ((1, "Fee: 25 INR, order 1."),),
        "The full stop ends the sentence: the number is 25, and step 1 says 25."),
    _ex("as written, without the space around", "  Refund 99 INR [3].\n", OBS,
        "Return the sentence as the answer writes it, without the white space around the answer."),
)


def _observation(draw: Draw) -> str:
    """Words and numbers, some glued to what is around them: "25INR", "(62)", "19:02"."""
    words = NUMBERS if draw.boolean() else WORDS + GLUED
    return " ".join(draw.pick(words) for _ in range(draw.integer(1, 3)))


def _sentence(draw: Draw) -> str:
    words = [draw.pick(("Refund", "It was", "About", "So"))]
    cites = "".join(f"[{draw.integer(1, 4)}]" for _ in range(draw.integer(0, 2)))
    if cites and draw.boolean():  # "Per [1] it was 62." puts the number right before the full stop
        words, cites = [*words, cites], ""
    words += [draw.pick(NUMBERS) if draw.below(4) else draw.pick(WORDS) for _ in range(draw.integer(1, 2))]
    return " ".join(words) + (" " + cites if cites else "") + draw.pick((".", "!", "?"))


def _answer(draw: Draw) -> tuple:
    """One to three sentences citing up to two steps (step 4 never exists), maybe with space around."""
    observations = [[n, _observation(draw)] for n in range(1, draw.integer(1, 4))]
    text = _sentence(draw)
    for _ in range(draw.integer(0, 2)):
        text += draw.pick(GAPS) + _sentence(draw)
    around = draw.pick(("", "", " ", "\n"))
    return around + text + around, observations


HIDDEN = tuple(Example(f"hidden case {n}", _answer(Draw(random.Random(f"10.uncited_claims:{n}"))),
                       "Split, then judge each sentence by its numbers and the observations it cites.")
               for n in range(1, 13))

RULES = (
    Rule(SPLIT, ("one sentence flagged of two", "an exclamation mark ends a sentence", GENERATED),
         edge=lambda a: len(re.split(SENTENCE_END, a[0].strip())) > 2),
    Rule(GAP, ("a line break between sentences", GENERATED), edge=_gap),
    Rule("holds a number", ("a sentence without a number", GENERATED),
         edge=lambda a: any(not NUMBER.findall(CITATION.sub("", s)) for s in re.split(SENTENCE_END, a[0]))),
    Rule(DECIMAL, ("a number with a decimal point", "a decimal found whole", "a full stop after a number",
                   GENERATED),
         edge=lambda a: any("." in n for n in _claimed(a))),
    Rule("not counting the citation numbers", ("citation numbers are not claims",)),
    Rule("every number in it", ("every number needs support",), edge=lambda a: len(_claimed(a)) > 1),
    Rule("in at least one observation it cites", ("an observation it does not cite", "the careful answer")),
    Rule(WHOLE, ("62 is not in 1062", "62 is not in 62.5", GENERATED), edge=_inside),
    Rule(MISSING, ("a step that does not exist", GENERATED), edge=_missing),
    Rule(AROUND, ("as written, without the space around", GENERATED), edge=lambda a: a[0] != a[0].strip()),
    Rule(AS_WRITTEN, ("one sentence flagged of two", GENERATED),
         edge=lambda a: any(CITATION.search(s) for s in uncited_claims(a[0], dict(a[1])))),
    Rule("in order", ("in order",), edge=lambda a: len(uncited_claims(a[0], dict(a[1]))) > 1),
)

SPEC = define(Spec(
    "10.uncited_claims", "flag the claims no observation supports", "uncited_claims", uncited_claims,
    EXAMPLES, _answer, RULES, faults=FAULTS, hidden=HIDDEN, observe=observe, show=_show,
    hints=('Split with re.split(r"(?<=[.!?])\\s+", answer.strip()); in each sentence find the cited step '
           'numbers (r"\\[(\\d+)\\]") and, after removing the citations, the numbers '
           '(r"(?<![\\d.])\\d+(?:\\.\\d+)?(?!\\d)").',
           "A number is found in an observation when the same pattern finds it there as a whole number; "
           "every number needs some cited observation, and a citation of a missing step is skipped."),
    generated_hint="Split into sentences, then judge each on its own: its numbers, and the observations it "
                   "cites."))
__all__ = ["SPEC"]
