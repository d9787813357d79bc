"""The legal actions as grouped buttons: grouped by the first word of their names.

``bid 9``, ``bid 10`` and ``pass`` become a group "bid" with buttons "9" and "10" and a group
"pass" with one button. A group with many actions is split again by its second word
(``reserve 9 drop 0`` goes to "reserve 9", ``build road at 1 2 as 0`` to "build road"), so that a
list of 150 actions reads as a dozen short rows (a split that would leave one button per row,
like ``fence 0`` .. ``fence 39``, is not made).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: A group with more actions than this is split by the second word of the names.
SPLIT_ABOVE = 12


@dataclass(frozen=True)
class ActionButton:
    action: int
    name: str  # the action's full name
    label: str  # what the button says: the name without its group's words


@dataclass
class ActionGroup:
    title: str  # the words every action of the group starts with
    buttons: list[ActionButton] = field(default_factory=list)
    subgroups: list[ActionGroup] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.buttons) + sum(group.size for group in self.subgroups)


def group_actions(actions: Sequence[tuple[int, str]], split_above: int = SPLIT_ABOVE) -> list[ActionGroup]:
    """``(index, name)`` pairs in the order given, as groups by first word (split again if large)."""
    groups = _group_by_word(actions, 0)
    for group in groups:
        if len(group.buttons) > split_above:
            pairs = [(button.action, button.name) for button in group.buttons]
            subgroups = _group_by_word(pairs, 1)
            if 1 < len(subgroups) <= len(group.buttons) / 2:  # rows of several buttons, not one per row
                group.buttons = []
                group.subgroups = subgroups
    return groups


def _group_by_word(actions: Sequence[tuple[int, str]], last_word: int) -> list[ActionGroup]:
    """Groups of the actions sharing their words 0..``last_word`` (names that short form one group)."""
    groups: dict[str, ActionGroup] = {}
    for action, name in actions:
        words = name.split()
        key_words = words[: last_word + 1]
        title = " ".join(key_words)
        label = " ".join(words[len(key_words) :]) or name
        groups.setdefault(title, ActionGroup(title)).buttons.append(ActionButton(action, name, label))
    return list(groups.values())
