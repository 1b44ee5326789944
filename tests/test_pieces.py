"""tables.pieces (issue 38): a template planned once is the template, word for word — a move
form's opening filled into its own places, a hand's piece with its forms called again at each
render — and no text a player typed is ever taken for a place."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from conflicts import fragments
from dustdevils import memo
from tables import pieces
from tables.templatetags.table_kit import MOVE_FORM, PER_FORM, move_form
from tests.conflicts.test_fragments import sizing_row, table_context

KEY = re.compile(r'name="key" value="[0-9a-f]{24}"')


@pytest.fixture(autouse=True)
def forget() -> None:
    memo.clear_all()


def by_template(**values: Any) -> str:
    return render_to_string(MOVE_FORM, values)


@pytest.mark.parametrize("csrf", ["", "tok<en>"])
@pytest.mark.parametrize("scope", ["", "jim"])
@pytest.mark.parametrize("confirm", ["", 'Fold? "Sure"'])
def test_a_planned_form_is_the_templates_own_rendering(csrf: str, scope: str, confirm: str) -> None:
    context = {"move_base": "/c/a&b/conflicts/7/move/ACTION/", "csrf_token": csrf, "version": 12,
               "scope_field": "pid", "bases": {"jim": "b<1>"}}  # fmt: skip
    for _ in range(2):  # planned, then from the plan
        html = move_form(context, "draw", scope=scope, cls="x y", confirm=confirm)
        key = re.search(r'name="key" value="([0-9a-f]{24})"', html)
        assert key is not None
        expected = by_template(
            action="draw", url="/c/a&b/conflicts/7/move/draw/", cls="x y", confirm=confirm,
            csrf_token=csrf, version=12, key=key.group(1), scope_field="pid", scope=scope,
            basis="b<1>" if scope else "",
        )  # fmt: skip
        assert html == expected


def test_each_form_gets_its_own_values_from_one_plan() -> None:
    base = {"move_base": "/m/ACTION/", "csrf_token": "t", "scope_field": "pid"}
    one = move_form({**base, "version": 1, "bases": {"a": "x"}}, "lay", scope="a")
    two = move_form({**base, "version": 2, "bases": {"b": "y"}}, "lay", scope="b")
    assert 'name="version" value="1"' in one
    assert 'name="version" value="2"' in two
    assert 'name="pid" value="b"' in two
    assert 'name="basis" value="y"' in two
    assert KEY.findall(one) != KEY.findall(two)
    assert pieces._plan.cache_info().currsize == 1  # type: ignore[attr-defined]
    assert {"version", "key", "csrf_token", "basis"} <= PER_FORM


def test_a_planned_hand_is_the_template_rendered_with_its_forms_at_every_render() -> None:
    """Loops, withs and ifs around the forms (the lay options, the allocation) walked as they
    run: the planned piece is the plain render, but for the fresh keys."""
    hand = sizing_row("jim", ["Quick", "Sly <one>"])
    hand.goal = "Grab ddVERSIONdd {{ version }} <b>"
    for phase in ("sizing", "draw", "laying"):
        context = table_context(state_phase=phase)
        plain = render_to_string(
            "conflicts/_own_hand.html",
            {"hand": hand, **{n: context.get(n) for n in (*fragments.TABLE_FACTS,
                                                          *fragments.PER_RENDER)},
             "campaign": fragments.Ref(slug="dry-gulch"), "conflict": fragments.Ref(pk=7)},
        )  # fmt: skip
        for _ in range(2):
            planned = fragments.own_hand_html(hand, context)
            assert KEY.sub("KEY", planned) == KEY.sub("KEY", plain), phase
        assert "Grab ddVERSIONdd {{ version }} &lt;b&gt;" in planned


def test_a_plan_is_one_viewers() -> None:
    """The same row on two viewers' screens: each their own plan (the key names the viewer),
    and each render its own CSRF token."""
    hand = sizing_row("jim", ["Quick"])
    mine = fragments.own_hand_html(hand, table_context(csrf_token="token-of-one"))
    theirs = fragments.own_hand_html(hand, table_context(csrf_token="token-of-two"))
    assert "token-of-one" in mine
    assert "token-of-one" not in theirs
    assert "token-of-two" in theirs
    assert len(pieces._PIECES._values) == 2
