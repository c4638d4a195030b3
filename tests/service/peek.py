"""Skirmish plus one command that shows red its secret card privately (hidden information)."""

from engine.core.state import clone
from tests.fixtures.skirmish import Skirmish


class PeekSkirmish(Skirmish):
    name = "skirmish-peek"

    def legal_actions(self, state, side):
        actions = super().legal_actions(state, side)
        if actions and state["phase"] == "move" and side == "red":
            actions.append({"type": "peek", "side": side})
        return actions

    def apply(self, state, action, dice):
        if action.get("type") != "peek":
            return super().apply(state, action, dice)
        if action not in self.legal_actions(state, action["side"]):
            self.refuse_unknown(state, action)
        return clone(state), [
            {"type": "peeked", "private": action["side"], "card": state["secret"][action["side"]]}
        ]

    def describe_event(self, state, event):
        if event["type"] == "peeked":
            return f"🔒 Your card: {event['card']}"
        return None
