"""Orders and choices a seat sends to the GM, as small frozen value types.

Each has ``text()`` giving the GM's DM syntax (``../shared/design/protocol.md``); ``notation.parse_line``
is the inverse. Legality (ownership, brackets, adjacency) is checked by ``legality``, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.protectors.values import Shared


def seat_name(n: int) -> str:
    return f"Player#{n}"


# -- Negotiation and Orders phase: one order per Province holding units ---------------------------
# rules: 003 Orders (March!, Delayed March!, Support!, Fortify!, Work, work!, Golden Orders)


@dataclass(frozen=True, slots=True)
class March(Shared):
    count: int
    src: str
    dst: str
    golden: bool = False
    delayed: bool = False

    def __init__(self, count: int, src: str, dst: str, golden: bool = False, delayed: bool = False) -> None:
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "golden", golden)
        object.__setattr__(self, "delayed", delayed)

    @property
    def province(self) -> str:
        return self.src

    def text(self) -> str:
        name = ("Delayed " if self.delayed else "") + ("Golden " if self.golden else "") + "March!"
        return f"{name} {self.count} from {self.src} to {self.dst}"


@dataclass(frozen=True, slots=True)
class Support(Shared):
    player: str
    target: str
    src: str | None = None  # None: "from" omitted, the seat's only Province (resolved by legality)
    golden: bool = False

    def __init__(self, player: str, target: str, src: str | None = None, golden: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "golden", golden)

    @property
    def province(self) -> str | None:
        return self.src

    def text(self) -> str:
        frm = f" from {self.src}" if self.src else ""
        return f"{'Golden ' if self.golden else ''}Support! {self.player} in {self.target}{frm}"


@dataclass(frozen=True, slots=True)
class Fortify(Shared):
    src: str
    golden: bool = False

    def __init__(self, src: str, golden: bool = False) -> None:
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "golden", golden)

    @property
    def province(self) -> str:
        return self.src

    def text(self) -> str:
        return f"{'Golden ' if self.golden else ''}Fortify! {self.src}"


@dataclass(frozen=True, slots=True)
class Work(Shared):
    src: str | None = None  # None: "Work, work!" alone, the seat's only Province
    golden: bool = False

    def __init__(self, src: str | None = None, golden: bool = False) -> None:
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "golden", golden)

    @property
    def province(self) -> str | None:
        return self.src

    def text(self) -> str:
        return f"{'Golden ' if self.golden else ''}Work, work!" + (f" {self.src}" if self.src else "")


ProvinceOrder = March | Support | Fortify | Work
ORDER_KINDS = ("march", "support", "fortify", "work")


_KINDS: dict[type, str] = {}


def order_kind(order: ProvinceOrder) -> str:
    """``march``, ``support``, ``fortify`` or ``work``: the order's class name, remembered per class (the
    orders event names every order's kind each turn, and a class name is a generic lookup compiled)."""
    t = type(order)
    k = _KINDS.get(t)
    if k is None:
        k = _KINDS[t] = t.__name__.lower()
    return k


# -- side choices in the orders phase ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Send(Shared):
    """rules: 003 Negotiation and Orders — send $Realm to another player."""

    amount: int
    to: str

    def text(self) -> str:
        return f"Send {self.amount} to {self.to}"


@dataclass(frozen=True, slots=True)
class Snitch(Shared):
    """rules: 003 Sea cards, Pirates! — name a Protector to the Pirates."""

    player: str

    def text(self) -> str:
        return f"Snitch {self.player}"


@dataclass(frozen=True, slots=True)
class Ferry(Shared):
    """rules: 003 Sea cards, Ferry! — pay 25 $Realm to march from this Province by ferry."""

    src: str

    def text(self) -> str:
        return f"Ferry {self.src}"


# -- bids, consolidation -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Funding(Shared):
    """rules: 003 Team Games, Pooled $Realm — "(110 from Player#2)"."""

    amount: int
    source: str

    def text(self) -> str:
        return f"{self.amount} from {self.source}"


@dataclass(frozen=True, slots=True)
class Bid(Shared):
    amount: int

    def __init__(self, amount: int) -> None:
        object.__setattr__(self, "amount", amount)

    def text(self) -> str:
        return f"Bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Buy(Shared):
    """rules: 003 Consolidation, Buying step — ``Buy 2 in P6. 1 in P5.`` in the order given."""

    allocations: tuple[tuple[str, int], ...]

    def __init__(self, allocations: tuple[tuple[str, int], ...]) -> None:
        object.__setattr__(self, "allocations", allocations)

    def text(self) -> str:
        # "" as the Province: the team form "Buy 2" (default placement)
        return "Buy " + " ".join(f"{n} in {p}." if p else str(n) for p, n in self.allocations)


@dataclass(frozen=True, slots=True)
class Upgrade(Shared):
    src: str

    def text(self) -> str:
        return f"Upgrade {self.src}"


@dataclass(frozen=True, slots=True)
class Capitol(Shared):
    """rules: 003 Golden Work, work! — choose the one lvl 3 Province kept as Capitol."""

    src: str

    def text(self) -> str:
        return f"Capitol {self.src}"


@dataclass(frozen=True, slots=True)
class ChooseFaction(Shared):
    faction: str

    def text(self) -> str:
        return f"Faction {self.faction}"


# -- Dragon Attack -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Commit(Shared):
    """rules: 003 Determine Protector US step — ``2 from P6 (sac 2)``."""

    src: str
    count: int
    sac: int | None = None

    def __init__(self, src: str, count: int, sac: int | None = None) -> None:
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "sac", sac)

    def text(self) -> str:
        return f"{self.count} from {self.src}" + (f" (sac {self.sac})" if self.sac is not None else "")


@dataclass(frozen=True, slots=True)
class Burn(Shared):
    """rules: 003 The Dragon's Wrath — a Province left undefended / chosen to burn."""

    src: str

    def text(self) -> str:
        return f"Burn {self.src}"


# -- faction abilities (issue 3 gives them their effects) ----------------------------------------


@dataclass(frozen=True, slots=True)
class Ability(Shared):
    """A named faction or Island ability, with an optional number (Fight fire with fire: 5)."""

    name: str
    value: int | None = None
    arg: str | None = None

    def text(self) -> str:
        out = ABILITY_TEXT.get(self.name, self.name)
        if self.value is not None:
            out += f": {self.value}"
        if self.arg is not None and self.name == "sanctum":  # "refresh faith_alone": the rulebook's name
            mode, _, key = self.arg.partition(" ")
            out += f" {mode} {SANCTUM_ABILITIES.get(key, key)}"
        elif self.arg is not None:
            out += f" {self.arg}"
        return out


# Tier 1 and 2 faction abilities a Wizard Sanctum holder may refresh or gain: key -> rulebook name
# (rules: 003 Wizard Sanctum; Factions). ``Ability("sanctum", arg="refresh <key>")`` is written with the name.
SANCTUM_ABILITIES = {
    "defenders_of_the_realm": "Defenders of the Realm",
    "fight_fire_with_fire": "Fight fire with fire!",
    "weather_forecast": "Weather forecast",
    "nothing_to_see_here": "Nothing to see here!",
    "merchants_of_the_gods": "Merchants of the gods",
    "mountain_king": "The Mountain King sends His Regards",
    "crusade": "Crusade!",
    "faith_alone": "Faith alone sustains us!",
    "great_game": "The Great Game of politics",
    "bank_of_lannuvar": "The Bank of Lannuvár",
}

ABILITY_TEXT = {
    "fight_fire_with_fire": "Fight fire with fire",
    "nothing_to_see_here": "Nothing to see here!",
    "bank_of_lannuvar": "The Bank of Lannuvár",
    "faith_alone": "Faith alone sustains us",
    "weather_forecast": "Weather forecast",  # the free Event-deck look (already shown; accepted, no effect)
    "peek_dragon": "Weather forecast: There be Dragons?",
    "discard_event": "Discard the top Event card",
    "replace_dragon": "Replace with There be Dragons!",
    "palantir": "Palantír",
    "mountain_king_offer": "The Mountain King's protection",
    "sanctum": "Sanctum",
}


Item = (
    March | Support | Fortify | Work | Send | Snitch | Ferry | Bid | Buy | Upgrade | Capitol
    | ChooseFaction | Commit | Burn | Ability
)


@dataclass(frozen=True, slots=True)
class Line(Shared):
    """One parsed DM line: the item, plus any team funding "(N from Player#k)" attached to it."""

    item: Item
    funding: tuple[Funding, ...] = field(default=())

    def __init__(self, item: Item, funding: tuple[Funding, ...] = ()) -> None:
        object.__setattr__(self, "item", item)
        object.__setattr__(self, "funding", funding)

    def text(self) -> str:
        t = self.item.text()
        if self.funding:
            t += " (" + ", ".join(f.text() for f in self.funding) + ")"
        return t
