"""Real types in the public signatures.

The package's modules use ``from __future__ import annotations`` (annotations cost nothing at
import, and may name classes defined further down), so every annotation is a string, and
``help()`` and :func:`inspect.signature` would print them quoted (``letters: 'int | None'``).
:func:`resolve` evaluates a public object's annotations once, in the namespace of the module
that defines it, so that they print as the types themselves.  ``jotto`` applies it to each name
it exports as the name is first used (and ``jotto.players`` to its own).  Two kinds stay as
written: an annotation that does not evaluate at run time (a name imported only for type
checkers), and one that names a union alias (``Words``, ``Hider``, ``Source``, NumPy's
``ArrayLike``): the alias's name, which the docstring explains, reads better than its expansion
(``ArrayLike`` alone unfolds into a dozen lines).
"""

from __future__ import annotations

import re
import sys
from typing import Any, Union, get_origin

__all__ = ["resolve"]


def resolve(obj: Any) -> Any:
    """Evaluate the string annotations of ``obj`` (a function, or a class with its methods,
    properties and fields) in its module's namespace; returns ``obj``."""
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    if module is None:
        return obj
    namespace = vars(module)
    if isinstance(obj, type):
        local = {obj.__name__: obj}
        _evaluate(obj.__dict__.get("__annotations__"), namespace, local)
        for member in list(vars(obj).values()):
            if isinstance(member, property):
                member = member.fget
            _evaluate(
                getattr(getattr(member, "__func__", member), "__annotations__", None),
                namespace,
                local,
            )
    else:
        _evaluate(getattr(obj, "__annotations__", None), namespace, {})
    return obj


def _evaluate(annotations: Any, namespace: dict[str, Any], local: dict[str, Any]) -> None:
    if not isinstance(annotations, dict):
        return
    for key, value in annotations.items():
        # a quoted annotation under the future import is a string of a string: evaluate twice
        for _ in range(2):
            if not isinstance(value, str):
                break
            try:
                typed = eval(value, namespace, local)  # noqa: S307 (our own source text)
            except Exception:  # noqa: BLE001 (a name only type checkers see: keep the text)
                break
            if _names_union_alias(value, namespace):
                break
            value = typed
        annotations[key] = value


def _names_union_alias(text: str, namespace: dict[str, Any]) -> bool:
    """Whether the annotation ``text`` names a module-level alias of a union type."""
    return any(
        get_origin(namespace.get(name)) is Union for name in re.findall(r"[A-Za-z_]\w*", text)
    )
