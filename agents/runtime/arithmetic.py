"""Safe evaluation of arithmetic expressions (no names, no calls, bounded sizes)."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from agents.runtime.errors import ToolError

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
MAX_EXPRESSION_CHARS = 500
MAX_MAGNITUDE = 1e100


def evaluate(expression: str) -> float | int:
    """Evaluate +, -, *, /, //, %, ** and parentheses over numbers; raise ToolError otherwise."""
    text = expression.replace("^", "**").replace("\u00d7", "*").replace("\u00f7", "/").strip()
    if not text:
        raise ToolError("the expression is empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ToolError(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as error:
        raise ToolError(f"not an arithmetic expression: {expression!r}") from error
    value: float | int = _eval(tree.body)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return _bounded(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 100:
            raise ToolError("exponent too large (the limit is 100)")
        try:
            value = _BINARY[type(node.op)](left, right)
        except ZeroDivisionError as error:
            raise ToolError("division by zero") from error
        except OverflowError as error:
            raise ToolError("the result is too large") from error
        return _bounded(value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    raise ToolError(f"unsupported element in expression: {ast.dump(node)[:60]}")


def _bounded(value: Any) -> Any:
    if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        raise ToolError("the result is not a finite real number")
    if abs(value) > MAX_MAGNITUDE:
        raise ToolError("the result is too large")
    return value
