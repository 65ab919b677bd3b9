"""A griffe extension for the API reference (mkdocs.yml loads it; not a page of the site).

- The compiled classes (``Unit``, ``Weapon``, ``Army``, ...) are documented from the stub
  ``python/oprstats/_core.pyi``, where their constructors are ``__new__``: each gets an
  ``__init__`` with the same parameters, so the reference shows ``Unit(name, *, size, ...)``
  and the constructor's docstring (``merge_init_into_class`` merges only ``__init__``).
- ``name = property(lambda self: ..., doc="...")`` in a class is shown as a property with
  that docstring, not as an attribute whose value is a lambda.
- The docstrings use Sphinx roles (``:func:`attack```): a role naming something the reference
  documents becomes a link to it, any other a plain code span.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|data|attr|obj|exc|mod):`(~?)([^`]+)`")
PACKAGE = "oprstats"


def _walk(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if isinstance(member, griffe.Object) and member.parent is obj:
            yield from _walk(member)


def _documented(pkg: griffe.Module) -> set[str]:
    """The paths the reference renders: ``oprstats.NAME`` for each name in ``__all__``
    (with the public members of classes), and the public functions of ``oprstats.plot``."""
    paths: set[str] = set()
    for name in pkg.exports or ():
        name = str(name)
        if name.startswith("_") or name not in pkg.members:
            continue
        paths.add(f"{PACKAGE}.{name}")
        target = pkg.members[name]
        if isinstance(target, griffe.Alias):
            target = target.final_target
        if isinstance(target, griffe.Class):
            paths.update(f"{PACKAGE}.{name}.{m}" for m in target.all_members if not m.startswith("_"))
    plot = pkg.members.get("plot")
    if plot is not None:
        paths.add(f"{PACKAGE}.plot")
        paths.update(f"{PACKAGE}.plot.{n}" for n, m in plot.members.items() if not n.startswith("_") and not m.is_alias)
    return paths


class OprstatsDocs(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != PACKAGE:
            return
        documented = _documented(pkg)
        public_of = {}  # a class's canonical path -> its path in the reference
        for name in pkg.exports or ():
            member = pkg.members.get(str(name))
            if isinstance(member, griffe.Alias):
                try:
                    public_of[member.final_target.path] = f"{PACKAGE}.{name}"
                except griffe.AliasResolutionError:
                    pass
        for obj in _walk(pkg):
            if isinstance(obj, griffe.Class):
                self._constructor(obj)
            if isinstance(obj, griffe.Attribute) and obj.parent is not None and obj.parent.is_class:
                self._property(obj)
            if obj.docstring is not None:
                obj.docstring.value = self._roles(obj, obj.docstring.value, documented, public_of)

    @staticmethod
    def _constructor(klass: griffe.Class) -> None:
        new = klass.members.get("__new__")
        if not isinstance(new, griffe.Function) or "__init__" in klass.members:
            return
        params = list(new.parameters)[1:]  # without cls
        init = griffe.Function(
            "__init__",
            lineno=new.lineno,
            endlineno=new.endlineno,
            parameters=griffe.Parameters(griffe.Parameter("self", kind=griffe.ParameterKind.positional_or_keyword), *params),
            returns="None",
            docstring=new.docstring,
        )
        klass.set_member("__init__", init)

    @staticmethod
    def _property(attr: griffe.Attribute) -> None:
        value = attr.value
        if not (isinstance(value, griffe.ExprCall) and str(value.function) == "property"):
            return
        for arg in value.arguments:
            if isinstance(arg, griffe.ExprKeyword) and arg.name == "doc":
                try:
                    doc = ast.literal_eval(str(arg.value))
                except (ValueError, SyntaxError):
                    return
                attr.docstring = griffe.Docstring(doc, parent=attr)
                attr.labels = {"property"}
                attr.value = None
                return

    @staticmethod
    def _roles(obj: griffe.Object, text: str, documented: set[str], public_of: dict[str, str]) -> str:
        # the reference path of the class this docstring belongs to, for :meth:`fit`
        owner = obj if obj.is_class else obj.parent if obj.parent is not None and obj.parent.is_class else None
        scopes = [PACKAGE]
        if owner is not None and owner.path in public_of:
            scopes.insert(0, public_of[owner.path])
        if obj.path.startswith(f"{PACKAGE}.plot"):
            scopes.insert(0, f"{PACKAGE}.plot")

        def link(match: re.Match) -> str:
            short, target = match.group(1), match.group(2)
            shown = target.rsplit(".", 1)[-1] if short else target
            relative = target[len(PACKAGE) + 1:] if target.startswith(PACKAGE + ".") else target
            for scope in [PACKAGE] if relative != target else scopes:
                path = f"{scope}.{relative}"
                if path in documented:
                    return f"[`{shown}`][{path}]"
            return f"`{shown}`"

        return ROLE.sub(link, text)
