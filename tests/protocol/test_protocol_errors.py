"""The error tree (meja.protocol.errors): stable codes, close codes, rules codes passed through."""

from __future__ import annotations

import pytest
from meja.protocol import errors
from meja.rules import errors as rules_errors

DRAFT_CODES = {
    "protocol/bad_message", "protocol/unknown_type", "protocol/rate_limited", "protocol/version",
    "auth/bad_token", "auth/not_host", "auth/not_seated",
    "table/not_found", "table/code_rate_limited", "table/full", "table/bad_options", "table/not_lobby",
    "table/not_playing", "seat/taken", "seat/bad_seat",
    "action/not_your_turn", "action/illegal", "action/stale_version", "action/bad_action", "action/round_over",
    "deal/bad_code", "internal",
}  # fmt: skip


def test_every_draft_code_exists_and_additions_are_known() -> None:
    assert set(errors.ERROR_CODES) >= DRAFT_CODES
    assert set(errors.ERROR_CODES) - DRAFT_CODES == {
        "limit/exceeded", "server/full", "name/taken", "name/reserved", "seat/kicked",
        "talk/off", "talk/restricted", "talk/muted", "talk/bad_text", "call/not_in_call", "table/not_finished",
        "hint/off", "archive/not_found", "deal/not_found",
    }  # fmt: skip


def test_close_codes() -> None:
    assert errors.MalformedFrame("x").close == 4000
    assert errors.UnsupportedVersion("x").close == 4003
    assert errors.BadMessage("x").close is None
    assert {int(c) for c in errors.CloseCode} == {1001, 1009, 1011, 4000, 4001, 4002, 4003, 4004}


@pytest.mark.parametrize(
    "exc",
    [
        rules_errors.IllegalActionError("'KS' does not match"),
        rules_errors.NotYourTurnError("it is seat 1's decision"),
        rules_errors.RoundOverError("the match is over"),
        rules_errors.BadActionError("unknown action kind"),
        rules_errors.BadOptionsError("unknown preset"),
        rules_errors.BadSeatError("no seat 9"),
        rules_errors.BadDealCodeError("mistyped"),
    ],
)
def test_rules_codes_pass_through_unchanged(exc: rules_errors.RulesError) -> None:
    assert errors.wire_error(exc) == (exc.code, str(exc))


def test_unexpected_exceptions_become_internal_and_reveal_nothing() -> None:
    code, message = errors.wire_error(KeyError("secret-token"))
    assert code == "internal" and "secret" not in message


def test_our_errors_keep_code_and_message() -> None:
    assert errors.wire_error(errors.TableFull("no free seat")) == ("table/full", "no free seat")
    assert errors.wire_error(errors.StaleVersion("moved on")) == ("action/stale_version", "moved on")
