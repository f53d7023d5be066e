"""The course calculator refuses hostile input with a clear error and never evaluates it (fuzzed)."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conductor.course.scenarios import calculate

FUZZ = settings(max_examples=100, deadline=None)

NOT_ARITHMETIC = (ast.Call, ast.Attribute, ast.Name, ast.Subscript, ast.Lambda, ast.Compare, ast.BoolOp)


def outcome(expression: str) -> tuple[str, object]:
    """("ok", result) or ("refused", message); any other exception fails the test."""
    try:
        return "ok", calculate(expression)["result"]
    except ValueError as exc:
        return "refused", str(exc)


# -- hostile input, named ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("__import__('os').system('rm -rf /')", "Call is not allowed (calling a function)"),
        ("().__class__.__base__.__subclasses__()", "is not allowed"),
        ("(1).__class__", "Attribute is not allowed (reading an attribute)"),
        ("open", "Name is not allowed (a name or variable)"),
        ("[1][0]", "is not allowed"),
        ("1 if 1 else 2", "IfExp is not allowed"),
        ("1 < 2", "Compare is not allowed"),
        ("'%s' % 1", "Constant is not allowed"),
        ("1j * 1", "Constant is not allowed"),
        ("1e999", "too large"),
        ("9 ** 9 ** 9", "exponent"),
        ("2 ** 5000", "exponent 5000 is too large"),
        ("(2 ** 999) * (2 ** 999) * (2 ** 999) * (2 ** 999) * (2 ** 999)", "bits"),
        ("(2 ** 4000) ** 0.5", "too large"),
        ("1 << 100000", "the operator LShift"),
        ("-" * 60 + "1", "nested"),
        ("1" + "+1" * 45, "nested"),
        ("1" * 201, "longer than 200 characters"),
        ("1\x00", "not an arithmetic expression"),
        ("", "not an arithmetic expression"),
    ],
)
def test_hostile_input_gets_a_clear_error(expression, message):
    kind, text = outcome(expression)
    assert kind == "refused"
    assert message in text


def test_redundant_parentheses_are_not_nesting():
    assert outcome("(" * 90 + "1" + ")" * 90) == ("ok", 1)


# -- fuzzing --------------------------------------------------------------------------------

atoms = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.sampled_from(["x", "os", "__import__('os')", "open('f')", "(1).real", "'s'", "[1]", "{}", "True", "None"]),
)
operators = st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<<", "&", "|", "^", "@", " and ", " if 1 else "])


@st.composite
def expressions(draw, depth: int = 0):
    if depth > 4 or draw(st.booleans()):
        return draw(atoms)
    left, right = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    form = draw(st.sampled_from(["bin", "paren", "neg", "call", "attr"]))
    if form == "bin":
        return f"{left} {draw(operators)} {right}"
    if form == "paren":
        return f"({left})"
    if form == "neg":
        return f"-{left}"
    if form == "call":
        return f"{draw(st.sampled_from(['abs', 'eval', 'exec', '__import__']))}({left})"
    return f"({left}).{draw(st.sampled_from(['real', '__class__', 'system']))}"


def has_non_arithmetic(expression: str) -> bool:
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return True
    return any(isinstance(n, NOT_ARITHMETIC) for n in ast.walk(tree))


@FUZZ
@given(expressions())
def test_any_generated_expression_is_refused_or_a_bounded_number(expression):
    kind, value = outcome(expression)
    if has_non_arithmetic(expression) or len(expression) > 200:
        assert kind == "refused", expression  # names, calls, attributes: never looked up, never run
    if kind == "ok":
        assert type(value) in (int, float)
        assert not isinstance(value, int) or value.bit_length() <= 4096
    else:
        assert value and len(value) < 400  # a message a model can read


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises_anything_but_a_clear_value_error(text):
    kind, value = outcome(text)
    assert kind in ("ok", "refused")


@st.composite
def arithmetic(draw, depth: int = 0) -> tuple[str, int]:
    """An expression of small integers with + - * and its value, computed here (no eval)."""
    if depth > 3 or draw(st.booleans()):
        n = draw(st.integers(-99, 99))
        return (f"({n})" if n < 0 else str(n)), n
    (left, a), (right, b) = draw(arithmetic(depth + 1)), draw(arithmetic(depth + 1))
    op = draw(st.sampled_from("+-*"))
    value = a + b if op == "+" else a - b if op == "-" else a * b
    return f"({left} {op} {right})", value


@FUZZ
@given(arithmetic())
def test_plain_arithmetic_gets_the_right_answer(pair):
    text, value = pair
    assert outcome(text) == ("ok", value)
