"""Sphinx configuration of jotto's manual (``docs/``).

Build it, with the package installed and ``pip install --group docs`` (the test group includes
it), by ``python -m sphinx -W --keep-going -n docs docs/_build/html``; ``tests/house/test_docs.py``
runs this build and every example in the pages.

Pages are MyST Markdown; the API reference is autodoc (Google- and NumPy-style docstrings through
napoleon) of the public ``jotto.*`` names, the CLI reference is sphinx-click of the ``jotto``
command.

Cross-references are nitpicky, without intersphinx: the build must work where only the package
registries are reachable (this project's machines and CI), and Python's and NumPy's inventories
are not.  So :func:`resolve_without_inventory` below gives references a target in this order: a
public ``jotto.*`` name documented here under its public spelling (a docstring may say
``jotto.game.words.WordList``, the reference documents ``jotto.WordList``); an object that exists in
an internal ``jotto`` module or in Python's or NumPy's modules, shown as code without a link; and
anything else stays a warning, which ``-W`` makes an error, so a reference to nothing fails the
build.
"""

from __future__ import annotations

import builtins
import importlib
import pkgutil
import re
import types

import jotto  # the installed package, compiled core and all: autodoc imports its modules

project = "jotto"
author = "The jotto developers"
copyright = "The jotto developers"  # noqa: A001 (Sphinx's name)
release = version = jotto.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_click",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

#: Quotes and ellipses only: Sphinx's default also turns ``--`` into an en dash, and the CLI
#: reference (sphinx-click) then shows ``–resume`` where the option is ``--resume``: copied, it
#: fails.
smartquotes_action = "qe"

nitpicky = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
#: Shown by name in signatures: the hider argument would otherwise be spelled out as a union
#: holding NumPy's ArrayLike spelled out (see ``short_array_like``).
autodoc_type_aliases = {"Hider": "Hider", "HideFrom": "HideFrom"}
napoleon_google_docstring = True
napoleon_numpy_docstring = True
napoleon_use_rtype = False

html_theme = "furo"
html_title = f"jotto {release}"
pygments_style = "sphinx"

#: Modules whose objects references may name though no inventory of them is loaded.
EXTERNAL_ROOTS = {
    "builtins",
    "collections",
    "concurrent",
    "dataclasses",
    "fractions",
    "numbers",
    "numpy",
    "os",
    "pathlib",
    "random",
    "typing",
    "typing_extensions",
    "click",
}
#: Short spellings docstrings and annotations use for them.
ALIASES = {
    "np": "numpy",
    "Path": "pathlib.Path",
    "Fraction": "fractions.Fraction",
    "ArrayLike": "numpy.typing.ArrayLike",
    "Real": "numbers.Real",
    "Mapping": "collections.abc.Mapping",
    "Sequence": "collections.abc.Sequence",
    "Iterable": "collections.abc.Iterable",
    "Iterator": "collections.abc.Iterator",
    "Callable": "collections.abc.Callable",
    "Executor": "concurrent.futures.Executor",
}


def _lookup(dotted: str) -> object | None:
    """The object ``dotted`` names (a module, or attributes of one), or None."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for name in parts[i:]:
                obj = getattr(obj, name)
        except AttributeError:
            return None
        return obj
    return getattr(builtins, dotted, None) if "." not in dotted else None


def _public_spelling(target: str) -> str | None:
    """``jotto.game.words.WordList.index`` -> ``jotto.WordList.index``: the spelling this manual
    documents a public name under, for a reference through the module that defines it."""
    parts = target.split(".")
    if parts[0] != "jotto":
        return None
    for i in range(1, len(parts)):
        if parts[i] in jotto._EXPORTS:
            return ".".join(["jotto", *parts[i:]])
    return None


def resolve_without_inventory(app, env, node, contnode):
    """Sphinx's ``missing-reference`` event: see the module docstring."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    domain = env.get_domain("py")
    public = _public_spelling(target)
    if public is not None and public != target:
        found = domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], public, node, contnode
        )
        if found is not None:
            return found
    first, _, rest = target.partition(".")
    full = ALIASES.get(first, first) + ("." + rest if rest else "")
    if full.split(".")[0] in EXTERNAL_ROOTS | {"jotto"} and _lookup(full) is not None:
        return contnode
    if "." not in target and target in _internal_names():
        return contnode  # a name of the module that defines the documented object
    return None


_NAMES: set[str] = set()


def _internal_names() -> set[str]:
    """Every name at the top of a ``jotto`` module: what a docstring or signature may name
    without its module (``DROP_REASONS`` in :class:`jotto.WordList`, documented under ``jotto``;
    the type alias ``Hider``)."""
    if not _NAMES:
        for info in pkgutil.walk_packages(jotto.__path__, "jotto."):
            module = importlib.import_module(info.name)
            _NAMES.update(
                name
                for name, value in vars(module).items()
                if not isinstance(value, types.ModuleType)
            )
    return _NAMES


#: NumPy's ``ArrayLike`` as autodoc spells it out: a union of private types.
_ARRAY_LIKE = re.compile(r"~?[\w.]*_Buffer \| .*?_NestedSequence\[complex \| bytes \| str\]")
#: A name of ``autodoc_type_aliases`` inside a union, as autodoc spells it.
_ALIAS_IN_UNION = re.compile(r"TypeAliasForwardRef\('(\w+)'\)")


def short_array_like(app, what, name, obj, options, signature, return_annotation):
    """Sphinx's ``autodoc-process-signature`` event: ``ArrayLike`` in signatures by name (an
    alias of it in ``autodoc_type_aliases`` renders as ``TypeAliasForwardRef`` in a union), and
    ``Hider`` by name in a union too (``jotto.head_to_head``'s ``Hider | str | ArrayLike``)."""
    if signature:
        signature = _ALIAS_IN_UNION.sub(r"\1", _ARRAY_LIKE.sub("ArrayLike", signature))
    return signature, return_annotation


def setup(app):
    app.connect("missing-reference", resolve_without_inventory)
    app.connect("autodoc-process-signature", short_array_like)
    return {"parallel_read_safe": True}
