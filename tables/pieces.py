"""Two ways the table screens render less, for every game (issue 38).

**A small template, planned once per shape** (``fill``): a move form's opening is the same for
every form of one kind but for a few values (the version, a fresh key, the CSRF token, the
basis, the scope). Its template (plain text, ``{{ variables }}`` and ``{% if %}``) is walked
once per shape — the values that stay, and whether each per-form value is there — into its
text and its places for the per-form values; each form then costs what its fields cost: the
values escaped into their own places. Nothing is searched for or replaced in rendered text,
so whatever a player typed stays exactly as typed.

**Once per version** (``once``): what every viewer of a table sees alike at one version (the
shared screen, the timeline) is rendered once per process, remembered under the table's kind,
id and version and the template — a key that names no viewer, so only a piece made from public
facts may be remembered here (``make`` gets no viewer to leak). A new version is a new key:
the old piece is never shown again, and falls out of the bounded memory.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.template import Context, TemplateDoesNotExist, TemplateSyntaxError
from django.template.base import VariableNode
from django.template.base import render_value_in_context as rendered
from django.template.defaulttags import ForNode, IfNode, WithNode
from django.template.library import SimpleNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language

from dustdevils.memo import Found, bounded

# --- A small template, planned once per shape ----------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where a per-form value goes in a planned template: the template's own variable node
    (its filters and escaping are the template's)."""

    name: str
    node: VariableNode


Plan = tuple[str | Place, ...]
_PLAIN = Context()  # autoescape on: each value is escaped as the template would escape it


def fill(template: str, values: Mapping[str, Any], per_form: frozenset[str]) -> SafeString:
    """``template`` rendered with ``values``, from its plan for this shape (the values not in
    ``per_form``, and which of ``per_form`` are set): only the per-form values are put in."""
    shape = tuple((k, bool(v) if k in per_form else v) for k, v in values.items())
    out = []
    for part in _plan(template, shape, per_form, get_language()):
        if isinstance(part, str):
            out.append(part)
        else:
            out.append(_value(part, values))
    return mark_safe("".join(out))  # the template's text, each value escaped


def _value(place: Place, values: Mapping[str, Any]) -> str:
    """One per-form value as the template's ``{{ name }}`` prints it: escaped (a plain string
    or number the quick way, which is Django's ``escape``), its filters applied if any."""
    value = values[place.name]
    if place.node.filter_expression.filters:
        return str(place.node.render(Context(dict(values))))
    if isinstance(value, SafeData):
        return str(value)
    if isinstance(value, str | int) and not isinstance(value, bool):
        return html.escape(str(value))
    return str(rendered(value, _PLAIN))


@bounded(4096)
def _plan(
    template: str, shape: tuple[tuple[str, Hashable], ...], per_form: frozenset[str],
    language: str | None,
) -> Plan:  # fmt: skip
    """(``language``: the plan holds the template's translated words, so it is one per
    language.)"""

    def reads(node: Any) -> bool:
        return isinstance(node, VariableNode) and not per_form.isdisjoint(
            re.findall(r"\w+", node.filter_expression.token)
        )

    def place(node: Any, context: Context) -> Place | None:
        name = getattr(node.filter_expression.var, "var", None) if reads(node) else None
        return Place(str(name), node) if name in per_form else None

    def holds(node: Any) -> bool:
        return reads(node) or any(reads(n) for n in node.get_nodes_by_type(VariableNode))

    # A per-form value stands as its truth: only an ``if`` may read it.
    return _planned(template, dict(shape), holds, place)


# --- A row's piece, planned once while the row stays the same -------------------------------


@dataclass(frozen=True)
class Call:
    """A per-render tag of a planned piece (a move form's opening), with its arguments as
    they were resolved when the piece was planned: called again at every render."""

    func: Callable[..., str]
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]


_PER_RENDER: set[Callable[..., Any]] = set()


def per_render(func: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a simple tag (``takes_context``) whose output differs at every render (a move form
    with its version and fresh key): a planned piece calls it again each time."""
    _PER_RENDER.add(func)
    return func


Piece = tuple[str | Call, ...]
_PIECES: Found[Piece] = Found(4096)


def planned(
    template: str, static: dict[str, Any], per_render: dict[str, Any], key: Hashable
) -> SafeString:
    """``template`` rendered from ``static`` and ``per_render``, its plan remembered under
    ``key``: the text made from ``static`` alone (a per-render value is not there to be read),
    with the per-render tags (``per_render``) called again at each render with both. The
    caller's ``key`` must hold the whole of ``static`` and name its viewer: a plan is only ever
    used again for the same viewer's same row."""
    key = (key, get_language())  # the plan holds the template's words in this language
    plan = _PIECES.get(key)
    if plan is None:
        plan = _plan_piece(template, static)
        _PIECES.put(key, plan)
    context = {**static, **per_render}
    out = [
        part if isinstance(part, str) else part.func(context, *part.args, **dict(part.kwargs))
        for part in plan
    ]
    return mark_safe("".join(out))  # the template's own rendering, escaped


def _plan_piece(template: str, values: dict[str, Any]) -> Piece:
    def call(node: Any, context: Context) -> Call | None:
        if not isinstance(node, SimpleNode) or node.func not in _PER_RENDER:
            return None
        args, kwargs = node.get_resolved_arguments(context)
        return Call(node.func, tuple(args[1:]), tuple(sorted(kwargs.items())))

    def holds(node: Any) -> bool:
        found = [node, *_nodes(node, SimpleNode)]
        return any(getattr(n, "func", None) in _PER_RENDER for n in found)

    return _planned(template, values, holds, call)


# --- Planning: a template walked once into its text and its places ----------------------------


def _nodes(node: Any, kind: type) -> list[Any]:
    """``node``'s nodes of ``kind``, those of the templates it includes by name too (a move form
    in an included template is a per-render place like one written in place)."""
    found = list(node.get_nodes_by_type(kind))
    for include in [node, *node.get_nodes_by_type(IncludeNode)]:
        name = getattr(getattr(include, "template", None), "var", None)
        if isinstance(include, IncludeNode) and isinstance(name, str):
            try:
                included = cast(Any, get_template(name.strip("\"'"))).template
            except TemplateDoesNotExist:
                continue
            found += [n for inner in included.nodelist for n in _nodes(inner, kind)]
    return found


Part = TypeVar("Part")


def _planned(
    template: str, values: dict[str, Any], holds: Callable[[Any], bool],
    part: Callable[[Any, Context], Part | None],
) -> tuple[str | Part, ...]:  # fmt: skip
    """``template``'s text as rendered from ``values``, with a place (``part(node)``) for each
    node that ``part`` claims: every node that ``holds`` none is rendered as the template would
    render it; ``if``, ``with`` and ``for`` around a place are walked as they would run."""
    compiled = cast(Any, get_template(template)).template
    context = Context(values)
    out: list[str | Part] = []
    with context.render_context.push_state(compiled), context.bind_template(compiled):
        _walk(compiled.nodelist, context, out, template, holds, part)
    merged: list[str | Part] = []
    for piece in out:
        if isinstance(piece, str) and merged and isinstance(merged[-1], str):
            merged[-1] += piece
        else:
            merged.append(piece)
    return tuple(merged)


def _walk(
    nodes: Iterable[Any], context: Context, out: list[Any], name: str,
    holds: Callable[[Any], bool], part: Callable[[Any, Context], Any],
) -> None:  # fmt: skip
    def walk(inner: Iterable[Any]) -> None:
        _walk(inner, context, out, name, holds, part)

    for node in nodes:
        if isinstance(node, IncludeNode) and not node.isolated_context:
            # An included template is walked as if written here: its per-render values (a move
            # form inside it) stay places, never rendered once with the plan's empty values.
            included = node.template.resolve(context)
            if isinstance(included, str):
                included = cast(Any, context.template).engine.get_template(included)
            extra = {k: cast(Any, v).resolve(context) for k, v in node.extra_context.items()}
            with context.push(**extra):
                walk(getattr(included, "template", included).nodelist)
        elif not holds(node):
            out.append(node.render_annotated(context))
        elif (found := part(node, context)) is not None:
            out.append(found)
        elif isinstance(node, IfNode):
            for condition, branch in node.conditions_nodelists:
                if condition is None or condition.eval(cast(Any, context)):
                    walk(branch)
                    break
        elif isinstance(node, WithNode):
            extra = {k: cast(Any, v).resolve(context) for k, v in node.extra_context.items()}
            with context.push(**extra):
                walk(node.nodelist)
        elif isinstance(node, ForNode):
            _loop(node, context, walk)
        else:
            raise TemplateSyntaxError(f"{name}: {node!r} around a per-render value")


def _loop(node: ForNode, context: Context, walk: Callable[[Iterable[Any]], None]) -> None:
    """``ForNode.render``'s loop, walked (the same loop variables and ``forloop``)."""
    parent = context.get("forloop", {})
    with context.push():
        values = list(cast(Any, node.sequence).resolve(context, ignore_failures=True) or [])
        if not values:
            walk(node.nodelist_empty)
            return
        if node.is_reversed:
            values.reverse()
        loop: dict[str, Any] = {"parentloop": parent}
        context["forloop"] = loop
        count = len(values)
        for i, item in enumerate(values):
            loop.update(counter0=i, counter=i + 1, revcounter=count - i,
                        revcounter0=count - i - 1, first=i == 0, last=i == count - 1)  # fmt: skip
            if len(node.loopvars) > 1:
                with context.push(**dict(zip(node.loopvars, item, strict=True))):
                    walk(node.nodelist_loop)
            else:
                context[node.loopvars[0]] = item
                walk(node.nodelist_loop)


# --- Once per version ------------------------------------------------------------------------


# Remembered by key, the least recently used forgotten first (``memo.clear_all`` reaches it).
_VERSIONS: Found[SafeString] = Found(2048)


def once(
    kind: str, table: Hashable, version: int, template: str, make: Callable[[], str]
) -> SafeString:
    """What ``make()`` renders of ``template`` for the table ``table`` (its id, with what tells
    it from an earlier row that had the same id: its creation time) of ``kind`` at ``version``,
    made once per process and version. ``make`` must show only what every viewer of the table
    sees alike (public facts): the key names no viewer, only the language it is rendered in
    (the active one: each viewer's, ``dustdevils.live.tables``). Only for a read of committed
    rows (a live stream's): a render inside a transaction that may yet roll back must not be
    kept."""
    key = (kind, table, version, template, get_language())  # one per language read in
    piece = _VERSIONS.get(key)
    if piece is None:
        piece = mark_safe(make())  # rendered (escaped) by a template
        _VERSIONS.put(key, piece)
    return piece
