"""Tools: registration checks, error observations, and the bundled offline tools."""

from __future__ import annotations

import threading

import pytest

from react_course.tools import (
    Clock,
    Encyclopedia,
    Shop,
    SupportDesk,
    ToolDefinitionError,
    ToolRegistry,
    as_registry,
    default_tools,
)


def add(a: int, b: int) -> str:
    """Add two whole numbers. Example input: {"a": 1, "b": 2}"""
    return str(a + b)


def shout(text: str) -> str:
    """Return the text in capitals.

    >>> shout("hi")
    'HI'
    """
    return text.upper()


def test_tool_list_is_generated_from_docstrings() -> None:
    tools = ToolRegistry([shout, add])
    assert tools.names == ["shout", "add"]
    assert tools.describe() == (
        "- shout(text: str): Return the text in capitals.\n"
        '- add(a: int, b: int): Add two whole numbers. Example input: {"a": 1, "b": 2}'
    )


def test_registration_rejects_undescribed_functions() -> None:
    def no_doc(x: str) -> str:
        return x

    def no_hint(x):  # type: ignore[no-untyped-def]
        """Has a docstring."""
        return x

    def star(*args: str) -> str:
        """Varargs."""
        return ""

    with pytest.raises(ToolDefinitionError, match="no docstring"):
        ToolRegistry([no_doc])
    with pytest.raises(ToolDefinitionError, match="no type hint"):
        ToolRegistry([no_hint])
    with pytest.raises(ToolDefinitionError, match=r"\*args"):
        ToolRegistry([star])
    with pytest.raises(ToolDefinitionError, match="already registered"):
        ToolRegistry([shout, shout])


def test_dict_of_plain_functions_is_accepted_leniently() -> None:
    tools = as_registry({"echo": lambda text: f"echo {text}", "length": len})
    assert tools.run("echo", "hi") == "echo hi"
    assert tools.run("length", "four") == "4"
    assert "(no description given)" in tools.describe()


def test_input_conversion_and_json_for_several_parameters() -> None:
    tools = ToolRegistry([add, shout])
    assert tools.run("add", '{"a": 2, "b": "3"}') == "5"
    assert tools.run("shout", '{"text": "hi"}') == "HI"
    assert tools.run("shout", "{not json}") == "{NOT JSON}"
    assert 'give them as JSON: {"a": "...", "b": "..."}' in tools.run("add", "2, 3")
    assert "expected the keys ['a', 'b']" in tools.run("add", '{"a": 1}')


def test_every_failure_is_an_observation() -> None:
    def broken(x: str) -> str:
        """Always fails."""
        raise KeyError("no such key")

    released, finished = threading.Event(), threading.Event()  # the test lets the slow tool go

    def slow(x: str) -> str:
        """Hangs until released."""
        released.wait(60)
        finished.set()
        return "late"

    def blank(x: str) -> str:
        """Returns nothing."""
        return ""

    tools = ToolRegistry([broken, slow, blank, add])
    outcome = tools.call("nope", "x")
    assert outcome.error == "unknown_tool"
    assert outcome.text == "Unknown tool 'nope'. Available tools: broken, slow, blank, add."
    assert "did you mean 'add'" in tools.run("Add", "x")
    assert tools.call("broken", "x").error == "tool_error"
    assert "KeyError" in tools.run("broken", "x")
    timed_out = tools.call("slow", "x", timeout=0.2)
    came_back_first = not finished.is_set()  # the call did not wait for the tool to end
    released.set()
    assert timed_out.error == "tool_timeout" and came_back_first
    assert tools.call("blank", "x").text == "blank returned no result for 'x'."
    bad = tools.call("add", '{"a": "one", "b": 2}')
    assert bad.error == "bad_input" and "a must be int, got 'one'" in bad.text


def test_unknown_tool_is_never_guessed() -> None:
    ran = []

    def search(query: str) -> str:
        """Search."""
        ran.append(query)
        return "found"

    tools = ToolRegistry([search])
    assert tools.run("searches", "x").startswith("Unknown tool 'searches'")
    assert tools.run("Search", "x").startswith("Unknown tool 'Search'")
    assert ran == []


def test_encyclopedia_search_by_name_and_misses_in_words() -> None:
    book = Encyclopedia()
    assert "330 m" in book.search("Eiffel Tower")
    assert "330 m" in book.search("  the eiffel tower ")
    assert "330 m" in book.search("Eiffel Tower height")
    assert book.search("Paris tower 1889").startswith("No page matches 'Paris tower 1889'")
    assert "Similar names: Eiffel Tower" in book.search("Eifel Tower")
    assert book.search("Tesla").startswith("[Tesla, Inc.]")
    assert "93 m" in book.search("Statue of Liberty")
    assert "12.2 million" in book.search("Paris")


def test_encyclopedia_lookup_in_the_current_page() -> None:
    book = Encyclopedia()
    assert book.lookup("tall").startswith("No page is open yet")
    book.search("Eiffel Tower")
    hit = book.lookup("flagpole")
    assert hit.startswith("[Eiffel Tower] 2 sentences contain 'flagpole': (1) When it opened")
    assert "312 m" in hit
    assert book.lookup("Champ de Mars").startswith("[Eiffel Tower] 1 sentence contains")
    assert "No sentence" in book.lookup("zeppelin")


def test_support_desk() -> None:
    desk = SupportDesk()
    order = desk.get_order(88213)
    assert "62 minutes late" in order and "item price 480 INR" in order and "delivery fee 25" in order
    assert desk.get_order(88219).startswith("No order 88219 exists")
    assert "10 minutes early" in desk.get_order(88250)
    assert "delivery fee is refunded" in desk.get_policy("late delivery")
    assert "delivery fee is refunded" in desk.get_policy("refund for a late order")
    assert desk.get_policy("weather").startswith("No policy matches 'weather'. Topics:")


def test_shop_is_strict_about_names() -> None:
    shop = Shop()
    assert shop.price("notebook") == "A notebook costs 4."
    assert shop.price("an eraser") == "An eraser costs 1."
    assert shop.price("notebooks").startswith("The shop has no item called 'notebooks'")


def test_clock_can_be_fixed() -> None:
    import datetime as dt

    assert Clock(dt.date(2024, 7, 26)).today() == "Today is Friday, 26 July 2024."
    assert default_tools(dt.date(2024, 7, 26)).run("today", "") == "Today is Friday, 26 July 2024."


def test_bundled_tools_are_independent() -> None:
    first, second = default_tools(), default_tools()
    first.run("search", "Eiffel Tower")
    assert second.run("lookup", "tall").startswith("No page is open yet")


def test_inputs_as_models_wrap_them() -> None:
    tools = ToolRegistry([shout, add])
    assert tools.run("shout", '{"query": "hi"}') == "HI"  # one key, any name
    assert tools.run("shout", 'text="hi there"') == "HI THERE"  # keyword syntax naming the parameter
    assert tools.run("shout", "other='x'") == "OTHER='X'"  # another name: left as it is
    assert tools.run("add", '{"a": 1, "b": 2}') == "3"


def test_empty_containers_and_optional_hints() -> None:
    def nothing(query: str) -> dict:
        """Returns an empty dict."""
        return {}

    def order(order_id: int | None) -> str:
        """Looks up an order."""
        return f"{type(order_id).__name__} {order_id}"

    tools = ToolRegistry([nothing, order])
    assert tools.call("nothing", "x").error == "empty_result"
    assert tools.run("order", "88213") == "int 88213"


def test_lookup_is_marked_stateful() -> None:
    tools = default_tools()
    assert tools["lookup"].repeatable and not tools["search"].repeatable
