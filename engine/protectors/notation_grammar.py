"""The grammar of each order kind of the GM's DM notation: ``parse_item`` reads one order (its first words, fillers,
Golden and Delayed, then March!, Support!, Fortify!, Work, work!, Bid, Buy, Send, Snitch, Faction, a commitment or
an ability) with a ``WordCursor``; ``parse_funding`` reads team pooling in brackets; ``ORDER_WORDS`` are the words an
order may start with."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping

from engine.errors import OrderSyntaxError
from engine.protectors.factions import FACTIONS, faction_named
from engine.protectors.notation_cursor import NameList, WordCursor, dashed_provinces
from engine.protectors.notation_words import (
    ABILITY_MATCHES,
    ALIASES,
    ALL,
    ALL_UNITS,
    CHOOSE_VERBS,
    COMMA_NUMBER,
    COMMIT_WORDS,
    COUNT_WORDS,
    DIGITS,
    DISCORD_MENTION,
    ELLIPSIS,
    EXPECTED_BY_STEP,
    EXPECTED_ORDERS,
    FACTION_FIRST_WORDS,
    FILLERS,
    HEAD_ITEMS,
    LIST_SEPARATORS,
    MAX_LINE_ECHO,
    MAX_REASON,
    MAX_TURN_DIGITS,
    MENTION,
    NUMBER,
    PROVINCE,
    REALM_WORDS,
    SANCTUM_ALIASES,
    clip,
    echo,
    is_count,
    province_name,
)
from engine.protectors.orders import (
    SANCTUM_ABILITIES,
    Ability,
    Bid,
    Burn,
    Buy,
    Capitol,
    ChooseFaction,
    Commit,
    Ferry,
    Fortify,
    Funding,
    Item,
    March,
    Send,
    Snitch,
    Support,
    Upgrade,
    Work,
)

# "(5 each from Red and Will)", "(5 from Red & Will each)": the amount from each of them, said so (EACH_MATE)
_EACH = re.compile(r"\s*(?P<n>\S+)\s+each\s+from\s+(?P<who>.+?)\s*|\s*(?P<n2>\S+)\s+from\s+(?P<who2>.+?)\s+each\s*",
                   re.IGNORECASE)


def parse_funding(line: str, inner: str, seats: Mapping[str, str], names: NameList | None) -> tuple[Funding, ...]:
    each = _EACH.fullmatch(inner)
    if each is not None:  # rules: 003 Team Games, Pooled $Realm: an amount from each team-mate, named each
        amount, who = each.group("n") or each.group("n2"), each.group("who") or each.group("who2")
        mates = [p for p in re.split(r"[,;+&]|\band\b", who, flags=re.IGNORECASE) if p.strip()]
        inner = ", ".join(f"{amount} from {mate.strip()}" for mate in mates)
    # "(20 from Bob + 10 from Carol)": '+' and '&' join fundings as 'and' does (they join a purchase's Provinces too)
    parts = [p for p in re.split(r"[,;+&]|\band\b", inner, flags=re.IGNORECASE) if p.strip()]
    if not parts:
        raise OrderSyntaxError(f"empty funding {echo('(' + inner + ')')}; expected like '(110 from Player#2)'",
                               input=clip(line, MAX_LINE_ECHO))
    out: list[Funding] = []
    try:
        for k, part in enumerate(parts):
            w = WordCursor(line, part, seats, names=names)
            if k and out and not NUMBER.fullmatch(w.peek() or "0"):
                _one_amount_two_mates(w, out[-1], inner)  # "(5 from Red & Will)"
            amount = w.number("the funding amount", 1)
            w.accept(*REALM_WORDS)
            w.expect("from", "the funding amount")
            out.append(Funding(amount, w.seat()))
    except OrderSyntaxError as err:
        m = COMMA_NUMBER.search(inner)
        if m is None:
            raise
        # "(1,000 from Bob)": in brackets ',' separates the fundings ("(10 from Player#2,100 from Player#3)")
        raise OrderSyntaxError(clip(f"{err.reason}; in the brackets ',' separates the fundings, so a number "
                                    "there is written without one (1000, not 1,000)", MAX_REASON),
                               input=clip(line, MAX_LINE_ECHO)) from None
    return tuple(out)


# rules: 003 Team Games, Pooled $Realm -- each amount names the team-mate it comes from ("(110 from Player#2)"): one
# amount from two team-mates ("Bid 10 (5 from Red & Will)") could be 5 from each or 5 between them; never guessed, the
# refusal says to give each its amount (it was "expected the funding amount (a whole number), got 'Will'")
def _one_amount_two_mates(w: WordCursor, before: Funding, inner: str) -> None:
    """Raise the refusal of ``w`` (a part of pooling brackets after ``before``) when it is a player's name alone."""
    start = w.i
    try:
        other = w.seat()
    except OrderSyntaxError:
        w.i = start
        return
    if w.peek() is not None:
        w.i = start
        return
    raise w.fail(clip(f"{echo(inner.strip())} gives one amount from two team-mates: {before.amount} from each, or "
                      f"{before.amount} between them? Give each team-mate its amount, like '({before.amount} from "
                      f"{before.source}, {before.amount} from {other})'", MAX_REASON))


def parse_item(w: WordCursor) -> Item:
    # "Turn 1 bid is 10", "My turn 4 bid = 10", "turn 1 bid 10": the bid's turn said before it, as "my bid for turn 1
    # is 10" says it after (dm_checks.other_turn checks it as a header's)
    at = w.i + (w.peek() == "my")
    if (w.norm[at : at + 1] == ["turn"] and at + 3 < len(w.norm) and DIGITS.fullmatch(w.norm[at + 1])
            and len(w.norm[at + 1]) <= MAX_TURN_DIGITS and w.norm[at + 2] in ("bid", "rebid")
            and not w.spelled[at + 2].endswith(":")  # "Turn 1 bid: 10": a header, then the bid
            and (w.norm[at + 3] in ("is", "=") or NUMBER.fullmatch(w.norm[at + 3]))):
        w.i = at + 2
    # "My bid: 20", "I march 2 from P1 to P2", "please fortify P1": a filler word before an order word
    while (w.peek() in FILLERS and w.i + 1 < len(w.norm) and w.norm[w.i + 1] in _FILLER_NEXT
           and not (w.i == 0 and w.peek() in w.seats)  # "Will bid 10" with a player named Will: whose bid?
           and not (w.peek() == "id" and w.norm[w.i + 1] not in CHOOSE_VERBS)):  # "I'd bid 10": I would, if ...
        w.i += 1
    # "I'd like to bid 20", "I want to fortify P1", "I'm going to bid 10", "I want to play Hodir"
    if w.peek() in ("like", "want", "going") and tuple(w.norm[w.i + 1 : w.i + 2]) == ("to",) and w.i + 2 < len(w.norm) \
            and (w.norm[w.i + 2] in HEAD_ITEMS or w.norm[w.i + 2] == "play"):
        w.i += 2
    golden = delayed = False
    while w.peek() in ("golden", "delayed"):
        word = w.raw[w.i].capitalize()
        if (golden, delayed)[w.peek() == "delayed"]:
            raise w.fail(f"{word!r} given twice")
        golden, delayed = golden or word == "Golden", delayed or word == "Delayed"
        w.i += 1
    head = w.peek()
    if (golden or delayed) and (head is None or head in _HEADER_AFTER_MARK):
        # "Golden orders:", "Delayed:" over the orders below, "**Golden**": which orders? said, never spread to them
        word, like = ("Delayed", "Delayed March! 2 from P1 to P2") if delayed else ("Golden", "Golden Fortify! P1")
        raise w.fail(f"{word!r} names no order here: write it before each order it applies to, on that order's line, "
                     f"like {like!r}")
    if head is None:
        raise w.fail(f"expected an order after {w.raw[w.i - 1]!r}" if w.i else "expected an order")
    head = ALIASES.get(head, head)
    if delayed and head != "march":
        raise w.fail(f"'Delayed' applies only to March!, not {w.spelled[w.i]!r}")
    if golden and head not in ("march", "support", "fortify", "work"):
        only = "March!, Support!, Fortify! and Work, work!"
        raise w.fail(f"'Golden' applies only to {only}, not {w.spelled[w.i]!r}{_did_you_mean(head)}")
    if (is_count(tuple(w.norm), w.i) and w.step == "consolidation" and not (golden or delayed)
            and _BUY_PLACE.match(" ".join(w.norm[w.i + 1 : w.i + 4]))):
        bought = _buy(w, golden, delayed)  # "1 in P6" alone: in the Consolidation only a purchase places units
        w.end()
        return bought
    if is_count(tuple(w.norm), w.i):
        return _parse_commit(w)  # "2 from P6", "one from P7" (after "commit two from P6 and")
    if head in COMMIT_WORDS and not (golden or delayed):  # "commit 2 from P6" (rules: 003 "commit ... to the fight")
        w.i += 1
        if w.peek() is not None and (NUMBER.fullmatch(w.peek() or "") or w.peek() in COUNT_WORDS):
            return _parse_commit(w)  # "commit 2 from P6", "commit two from P6", "commit all units from P6"
        raise w.fail(f"expected the unit count after {echo(w.raw[w.i - 1])}, like 'commit 2 from P6', {w.got()}")
    if head in SIMPLE_ORDERS:
        w.i += 1
        item = SIMPLE_ORDERS[head](w, golden, delayed)
        w.end()
        return item
    for alias, name in ABILITY_MATCHES:
        if tuple(w.norm[w.i : w.i + len(alias)]) == alias:
            w.i += len(alias)
            return _parse_ability(w, name)
    if not (golden or delayed) and (head in CHOOSE_VERBS or head in FACTION_FIRST_WORDS):
        said = tuple(w.norm[w.i + (head in CHOOSE_VERBS):])
        said = next((said[: -len(tail)] for tail in _AS_FACTION if said[-len(tail):] == tail), said)
        named = faction_named(" ".join(said))
        if named is not None:  # the rest of the segment is a faction's name
            w.i = len(w.norm)
            return ChooseFaction(named)
    expected = EXPECTED_BY_STEP.get(w.step, EXPECTED_ORDERS)
    # "Red Fortify P27", "@Red Fortify P27" (a mention typed by hand; was only "unknown order '@Red'")
    hint = f" ({echo(w.raw[w.i])} is a player's name: a DM gives your own orders, write them without it)" \
        if w.i == 0 and head.lstrip("@") in w.seats and w.i + 1 < len(w.norm) else \
        " ('I'd' is 'I would', which may depend on something: write the order alone, or 'I'd like to ...')" \
        if head == "id" and w.raw[w.i].lower() != "id" else \
        f" ({OTHER_GAMES_WORDS[head]})" if head in OTHER_GAMES_WORDS else \
        f" ({MENTION}: send your orders without it)" if DISCORD_MENTION.fullmatch(w.raw[w.i]) else \
        _province_first(w, head) or _factions_named(w)
    raise w.fail(f"unknown order {echo(w.spelled[w.i])}{hint or _did_you_mean(head)}; expected one of {expected}")


# rules: 003 Factions -- each player plays one faction, "by their own choice or by chance": a line naming two ("Hodir or
# Cenarion", "Hodir/Cenarion") chooses neither (it said only "unknown order 'Hodir'"); never one of them guessed
def _factions_named(w: WordCursor) -> str:
    """The hint for a line that names two factions or more (``Hodir or Cenarion``), else ``""``."""
    named: list[str] = []
    said = " ".join(w.norm[w.i :]).replace("/", " ").split()  # "Hodir/Cenarion"
    for k in range(len(said)):
        for size in (2, 1):  # "Iron Light", "Kalu Ak"
            faction = faction_named(" ".join(said[k : k + size])) if k + size <= len(said) else None
            if faction is not None and faction not in named:
                named.append(faction)
                break
    if len(named) < 2:
        return ""
    return f" ({' and '.join(named)} are {len(named)} factions: a DM chooses one, like 'Faction {named[0]}')"


def _province_first(w: WordCursor, head: str) -> str:
    """The hint for an order written after its Province ("P27: Fortify", "P28 - Work"): an order starts with its word
    (it said only "unknown order 'P27:'"); never read the other way round (``""`` for any other word)."""
    province = province_name(head)
    if province is None:
        return ""
    after = w.norm[w.i + 1] if w.i + 1 < len(w.norm) else ""
    if ALIASES.get(after, after) in SIMPLE_ORDERS and w.i + 2 == len(w.norm):  # "P27 fortify": the word written
        like = f"{w.raw[w.i + 1]} {province}"
    else:  # the step's own order ("P27: 3" in a Dragon attack is no Fortify!)
        like = _PROVINCE_FIRST_LIKE.get(w.step or "", "Fortify {}").format(province)
    return f" ({province} is a Province: write the order before it, like '{like}')"


_PROVINCE_FIRST_LIKE = {"dragon": "2 from {}", "consolidation": "Buy 1 in {}"}


# Words from other games' orders, never read as one of this game's (which order they mean is a guess): the refusal says
# what this game writes instead (it said only "unknown order 'hold'"). rules: 003 3. Negotiation and Orders.
OTHER_GAMES_WORDS = {
    "hold": "'hold' is no order in this game: to defend a Province write 'Fortify! P1'",
    "defend": "to defend a Province write 'Fortify! P1'",
    "attack": "an attack is a March! into the Province: 'March! 2 from P1 to P2'",
    "invade": "an attack is a March! into the Province: 'March! 2 from P1 to P2'",
    "give": "to give $Realm write 'Send 10 to Bob'",
    "pay": "to give $Realm write 'Send 10 to Bob'",
    "transfer": "to give $Realm write 'Send 10 to Bob'",
    "same": "earlier orders are not carried over: write this turn's orders out",
    "build": "units are bought in the Consolidation: 'Buy 2 in P6'",
    "recruit": "units are bought in the Consolidation: 'Buy 2 in P6'",
}


_HEADER_AFTER_MARK = frozenset({"orders", "order", "moves", "marches", "ones"})  # "Golden orders:", "Delayed moves:"


# Another language's order words (French, German, Spanish; accents dropped as ``norm_word`` drops them): never read as
# an order (a translation is a guess: "Marche" is also "it works", "Mise" a stake or a setting), only named in the
# refusal with the English order word they look like. rules: 003 3. Negotiation and Orders gives the orders in English.
# Assumption FOREIGN_ORDER_WORDS.
_FOREIGN_WORDS = {
    "march": "marche marcher marchez marsch marschiere marschieren marschiert marcha marchar marchad",
    "support": "soutien soutenir soutiens soutenez appui appuyer unterstutze unterstutzen unterstutzung apoyo apoyar "
               "apoya apoyad",
    "fortify": "fortifier fortifie fortifiez befestige befestigen befestigt fortificar fortifica fortificad",
    "work": "travail travailler travaille travaillez arbeit arbeite arbeiten trabajo trabajar trabaja trabajad",
    "bid": "mise miser enchere encherir offre gebot biete bieten puja pujar apuesta apostar oferta ofrezco",
    "buy": "acheter achete achetez achat kaufe kaufen kauf comprar compra compro",
    "send": "envoyer envoie envoyez sende senden schicke schicken enviar envia envio",
    "upgrade": "ameliorer ameliore ameliorez verbessern verbessere aufwerten ausbauen mejorar mejora",
    "golden": "dore doree goldene goldener goldenen goldenes dorado dorada",
    "delayed": "retarde retardee differe differee verzogert verzogerte verzogerter retrasado retrasada",
}
FOREIGN_ORDER_WORDS = {word: head for head, said in _FOREIGN_WORDS.items() for word in said.split()}


def _did_you_mean(head: str) -> str:
    """" (did you mean Fortify!?)" for a misspelt order word ("Fortfy!", "Marsh!", "Bdi"), " (orders are read in
    English: did you mean Fortify!?)" for another language's ("Fortifier", "Mise": ``FOREIGN_ORDER_WORDS``); "" for an
    order word spelt right or none close."""
    if head in _HEAD_NAMES:
        return ""
    if head in FOREIGN_ORDER_WORDS:
        return f" (orders are read in English: did you mean {_HEAD_NAMES[FOREIGN_ORDER_WORDS[head]]}?)"
    close = (difflib.get_close_matches(head, list(_HEAD_NAMES), n=1, cutoff=0.75)  # "Fortfy!", "Marsh!"
             or [n for n in _HEAD_NAMES if sorted(n) == sorted(head)])  # "Bdi": two letters swapped; not "ok"
    return f" (did you mean {_HEAD_NAMES[close[0]]}?)" if close else ""


# an order's first word as the rulebook writes it, for "did you mean ...?" after a misspelt one
_HEAD_NAMES = {"march": "March!", "support": "Support!", "fortify": "Fortify!", "work": "Work, work!", "bid": "Bid",
               "buy": "Buy", "upgrade": "Upgrade", "capitol": "Capitol", "burn": "Burn", "send": "Send",
               "snitch": "Snitch", "ferry": "Ferry", "faction": "Faction", "commit": "commit", "golden": "Golden",
               "delayed": "Delayed"}


def _march(w: WordCursor, golden: bool, delayed: bool) -> March:
    count = w.count("the unit count", 1)  # "March! all from P1 to P7": ALL
    w.units()
    if not (w.accept("from") or w.at_province()):  # "March! 2 P1 to P2": 'from' may go
        raise w.fail(f"expected 'from' after the unit count, {w.got()}")
    src = w.province("the source province")
    if not w.accept(*_TO_WORDS):  # "March! 2 from P1 -> P2"
        raise w.fail(f"expected 'to' after the source province, {w.got()}")
    return March(count, src, w.province("the destination province"), golden, delayed)


_TO_WORDS = ("to", "into", "->", "-->", "=>", ">", "→", "⟶", "➡")  # an arrow says 'to' as plainly


def _support(w: WordCursor, golden: bool, delayed: bool) -> Support:
    # rules: 003 Support! — "Support! <player> in <province> [from <province>]"; players also write 'at' for 'in'
    # ("Support! Bob at P3", as a purchase's "at P6"), or leave it out before the Province ("Support! Bob P3 from P2")
    rest = w.norm[w.i:]
    stop = next((word for word in ("in", "at") if word in rest), None)
    if stop is not None:
        player = w.seat(stop=stop)
        w.expect(stop, "the player")
    else:
        player = w.seat(stop=next((word for word in rest if PROVINCE.fullmatch(word)), None))
    target = w.province("the supported province")
    src = w.province("the supporting province") if w.accept("from") else None
    return Support(player, target, src, golden)


def _work(w: WordCursor, golden: bool, delayed: bool) -> Work:
    w.accept("work")  # "Work, work!" or a lone "Work"
    if w.peek() is None:
        return Work(None, golden)
    order = Work(_in_province(w, "the province"), golden)
    _not_a_list(w, order)
    return order


def _fortify(w: WordCursor, golden: bool, delayed: bool) -> Fortify:
    order = Fortify(_in_province(w, "the province"), golden)
    _not_a_list(w, order)
    return order


def _not_a_list(w: WordCursor, order: Fortify | Work) -> None:
    """Refuses a list of Provinces after a Fortify! or Work, work! that ``split_orders`` left as it is: a Golden one
    ("Golden Fortify! P1 and P2": Golden in each, or only in P1?), or one naming a Province twice ("Work P1 and P1");
    anything else after the Province is refused as usual (``WordCursor.end``)."""
    first, name = order.province, ("Fortify!" if isinstance(order, Fortify) else "Work, work!")
    after = w.norm[w.i : w.i + 2]
    if first is not None and len(after) == 2 and set(after[0]) == {"-"} and province_name(after[1]) is not None:
        # "Fortify P1 - P3" (dm_lines.unwrap keeps a dash between Provinces): P1 and P3, or P1 to P3?
        then = str(province_name(after[1]))
        raise w.fail(dashed_provinces(f"'{first} - {then}'", first, then, name))
    listed = [province_name(x) for x in w.norm[w.i :] if x not in LIST_SEPARATORS]
    if listed and first is not None:
        _words_after_a_list(w, name, first)
    if not listed or None in listed or first is None:
        return
    if ELLIPSIS.search(w.text):  # "Fortify P1, P2, ...": and more?
        raise w.fail(f"'...' after the list of Provinces could mean more of them: name each Province, like '{name} "
                     f"{first}, {listed[0]}'")
    provinces = [first, *(p for p in listed if p is not None)]
    if order.golden:
        raise w.fail(f"'Golden' before a list of Provinces could mean a Golden order in each of them or only in "
                     f"{first} (one Golden order of each kind a turn): write each order on its own line, like 'Golden "
                     f"{name} {first}' and '{name} {provinces[1]}'")
    twice = next((p for k, p in enumerate(provinces) if p in provinces[:k]), None)
    if twice is not None:
        raise w.fail(f"{twice} is named twice in the list of Provinces; name each Province once")


# rules: none (input hygiene). Words after a list of Provinces ("Fortify P27, P28, P32, P1 lol") were refused as
# "unexpected 'P28 P32 P1 lol' at the end of the order", naming the listed Provinces as unexpected; the refusal now
# names only the words after the list ("unexpected 'lol'"). Provinces with no ',' or 'and' between them ("Fortify P27
# P28") stay no list (another order word may be missing between them), and the refusal says how a list is joined
def _words_after_a_list(w: WordCursor, name: str, first: str) -> None:
    """After the Province ``first`` of a Fortify! or Work, work! (``name``): raise the refusal of Provinces not
    joined by ',' or 'and'; after a list of Provinces and more words, move ``w`` past the list, so the refusal of what
    is left names those words only."""
    k, joined, provinces = w.i, False, [first]
    while k < len(w.norm) and (w.norm[k] in LIST_SEPARATORS or province_name(w.norm[k]) is not None):
        joined = joined or w.norm[k] in LIST_SEPARATORS
        if w.norm[k] not in LIST_SEPARATORS:
            provinces.append(str(province_name(w.norm[k])))
        k += 1
    if k == w.i:
        return
    joined = joined or "," in w.text
    if not joined:  # "Fortify P27 P28 lol"
        raise w.fail(f"{echo(' '.join(w.raw[w.i:k]))} after '{name} {first}' is no list: Provinces in a list are "
                     f"joined by ',' or 'and', like '{name} {', '.join(provinces)}'")
    if k < len(w.norm) and len(provinces) > 1 and w.norm[k] not in ("p", "#"):  # not "P 34", spaced
        w.i = k  # WordCursor.end names the words after the list ("unexpected 'lol'"), or what they may mean


def _in_province(w: WordCursor, what: str) -> str:
    """The Province of a Fortify! or Work, work!, also after 'in' or 'at' ("Fortify! in P1")."""
    if w.peek() in ("in", "at") and w.i + 1 < len(w.norm):
        w.i += 1
    return w.province(what)


def _buy(w: WordCursor, golden: bool, delayed: bool) -> Buy:
    allocations: list[tuple[str, int]] = []
    while True:
        count = w.number("the number of units to buy", 1)
        w.units()
        if w.accept("in", "at", "@") or w.at_province():  # "Buy 1 unit at P6", "Buy 1 @ P6", "buy 1 P5"
            allocations.append((w.province("the province to buy in"), count))
        elif w.peek() is None or NUMBER.fullmatch(w.peek() or ""):
            allocations.append(("", count))  # team form: default placement
        else:
            w.expect("in", "the number of units to buy")
        if w.peek() is None:
            break
        w.accept("and", "+", "&")  # "Buy 2 in P6 and 1 in P5", "Buy 2 in P6 + 1 in P5"
        if allocations[-1][0] and w.at_province():  # "Buy 1 in P5 and P6": 1 in each, or 1 in all?
            place, count = allocations[-1]
            then = w.province("the province to buy in")
            raise w.fail(f"'{count} in {place} and {then}' could mean {count} in each or {count} in all: give each "
                         f"Province its count, like 'Buy {count} in {place}. {count} in {then}.' if you buy {count} in "
                         "each")
    if len(allocations) > 1 and any(p == "" for p, _ in allocations):
        raise w.fail("'Buy' without a province takes a single count")
    return Buy(tuple(allocations))


def _send(w: WordCursor, golden: bool, delayed: bool) -> Send:
    if w.peek() in ALL_UNITS or w.norm[w.i : w.i + 2] == ["the", "rest"]:
        # rules: 003 Negotiation and Orders — "state to the GM the amount"; what a seat holds when the Sends are
        # revealed (Execute Orders) is no fixed number at the DM (others' Sends to it, its purchases), so never
        # guessed (assumption DM_ALL)
        raise w.fail("a Send names its amount ('state to the GM the amount', rules 003): 'all' is no fixed number "
                     "there, so write the $Realm to send, like 'Send 40 to Bob'")
    amount = w.number("the amount", 1)
    w.accept(*REALM_WORDS)
    each = w.accept("each")  # "Send 10 each to Red and Will"
    w.expect("to", "the amount")
    rest = w.norm[w.i:]
    if " ".join(rest) not in w.seats and any(rest[k] == "and" and NUMBER.fullmatch(rest[k + 1])
                                             for k in range(1, len(rest) - 1)):
        # "Send 40 to Bob and 10 Carol": one amount per Send, said so instead of "'Bob and 10 Carol' is not a player"
        raise w.fail("a Send gives one amount to one player: write each Send with its amount and player, like 'Send 40 "
                     "to Bob, 10 to Carol', or each Send on its own line")
    players = w.players()
    if len(players) > 1:  # "Send 10 to Carol and Dan": 10 to each, or 10 in all? (SEND_LIST)
        sends = " and ".join(f"'Send {amount} to {p}'" for p in players)
        if each:  # no doubt left, but a Send still names one player: the lines to write
            raise w.fail(f"a Send gives its amount to one player: for {amount} to each of {' and '.join(players)}, "
                         f"write one Send per player, like {sends}")
        raise w.fail(f"a Send gives its amount to one player: {amount} to each of {' and '.join(players)}, or {amount} "
                     f"in all? write one Send per player with its amount, like {sends} if each gets {amount}")
    return Send(amount, w.seat())


def _faction(w: WordCursor, golden: bool, delayed: bool) -> ChooseFaction:
    # rules: 003 Factions -- each player selects their faction on turn 1: "Faction Hodir", "My faction is Hodir"
    w.accept("is", "=")
    start = w.i
    raw, norm = w.rest()
    named = faction_named(norm)
    if named is None:
        w.i = start
        two = _factions_named(w)  # "Faction Hodir or Cenarion"
        raise w.fail(f"unknown faction {raw!r}{two}; expected one of {', '.join(FACTIONS)}")
    return ChooseFaction(named)


def _snitch(w: WordCursor, golden: bool, delayed: bool) -> Snitch:
    w.accept("on")
    players = w.players()
    if len(players) > 1:  # "snitch carol & dan"
        # rules: 003 Pirates! -- "If you wish to snitch on another Protector, simply submit their name": one player
        one = " or ".join(f"'Snitch {p}'" for p in players)
        raise w.fail(f"a Snitch names one player (rules 003 Pirates!: 'snitch on another Protector ... submit their "
                     f"name'), and this one names {len(players)}: send one Snitch line, {one}")
    return Snitch(w.seat())


SIMPLE_ORDERS: dict[str, Callable[[WordCursor, bool, bool], Item]] = {
    "march": _march,
    "support": _support,
    "fortify": _fortify,
    "work": _work,
    "bid": lambda w, golden, delayed: _bid(w),
    "buy": _buy,
    "upgrade": lambda w, golden, delayed: Upgrade(w.province("the province to upgrade")),
    "capitol": lambda w, golden, delayed: Capitol(w.province("the Capitol province")),
    "capital": lambda w, golden, delayed: Capitol(w.province("the Capitol province")),
    "burn": lambda w, golden, delayed: Burn(w.province("the province to burn")),
    "send": _send,
    "snitch": _snitch,
    "ferry": lambda w, golden, delayed: Ferry(w.province("the ferry province")),
    "faction": _faction,
}


# "Bid all", "Bid everything", "Bid the rest", "Bid all I have", "Bid all my $Realm" (and "All in" alone in a step that
# takes only a bid: dm_phrases.as_bid): the most the seat may bid, ALL until dm_submit.settle gives the number
# (also "Bid all I've got", "Bid all I have left", "Bid it all", "Bid all of it", "Bid the rest of my $Realm"), longest
# first
_ALL_BIDS = tuple(sorted({
    ("all", "in"), ("all-in",), ("all", "of", "it"), ("it", "all"), ("the", "rest"), ("all",), ("everything",),
    *((every, *have, *left) for every in ("all", "everything") for have in (("i", "have"), ("i", "got"), ("ive", "got"))
      for left in ((), ("left",))),
    *((*every, *of, "my", word) for every in (("all",), ("the", "rest")) for of in ((), ("of",))
      for word in REALM_WORDS),
}, key=lambda phrase: (-len(phrase), phrase)))


_AS_FACTION = (("as", "my", "faction"), ("for", "my", "faction"), ("as", "faction"))


# may follow a filler ("going": "I'm going to bid 10")
_FILLER_NEXT = frozenset(HEAD_ITEMS) | frozenset(FILLERS) | frozenset(ALIASES) | CHOOSE_VERBS | {"going"}
ORDER_WORDS = frozenset({"golden", *COMMIT_WORDS, "delayed", *SIMPLE_ORDERS, *HEAD_ITEMS}
                        | {alias[0] for alias, _ in ABILITY_MATCHES})  # the words an order may start with


def _bid(w: WordCursor) -> Bid:
    said = _this_turn(w)
    numbered = said == 3 and w.norm[w.i + 1] == "turn"  # "for turn 1"
    # "for turn 1:", and when the bid's word starts the line "for this turn:" / "for next turn:" ("My bid for this
    # turn: 4" is read as a header, as "Here is my bid: 4")
    colon = said == 3 and (numbered or w.i == 1) and w.spelled[w.i + 2].endswith(":")
    if said and (w.norm[w.i + said : w.i + said + 1] in (["is"], ["="]) or colon):
        w.i += said  # "my bid for this turn is 4", "... for turn 1 is 4", "My bid for turn 1 = 4", "Bid for turn 1: 4",
        # "Bid for this turn: 4"
    w.accept("is", "of", "=")  # "my bid is 20", "a bid of 20"
    if w.accept("nothing", "none"):  # "I bid nothing"
        return Bid(0)
    every = next((len(a) for a in _ALL_BIDS if tuple(w.norm[w.i : w.i + len(a)]) == a), 0)
    w.i += every
    amount = ALL if every else w.number("the bid", 0)
    w.accept(*REALM_WORDS)  # "Bid 20 $Realm"
    said = _this_turn(w)
    if said == len(w.norm) - w.i:  # "I bid 10 this turn", as "my bid for this turn is"
        w.i += said
    return Bid(amount)


def _this_turn(w: WordCursor) -> int:
    """How many words from ``w``'s cursor say the bid is this DM's: ``for this turn``, ``this turn``, or ``for turn
    3`` (a turn number, which ``dm_checks.other_turn`` checks as it checks a header's), and in the Consolidation, whose
    bid is the next turn's (rules: 003 Consolidation, the buying and bidding step), also ``for next turn`` / ``next
    turn``; else 0 (``next turn`` outside the Consolidation: refused)."""
    words = w.norm[w.i :]
    phrases = (("for", "next", "turn"), ("next", "turn"), ("for", "this", "turn"), ("this", "turn")) \
        if w.step == "consolidation" else (("for", "this", "turn"), ("this", "turn"))
    for this_turn in phrases:
        if tuple(words[: len(this_turn)]) == this_turn:
            return len(this_turn)
    if words[:2] == ["for", "turn"] and len(words) > 2 and DIGITS.fullmatch(words[2]) \
            and len(words[2]) <= MAX_TURN_DIGITS:  # "my bid for turn 1 is 10"
        return 3
    return 0


# "1 in P6", "2 units at P6": the words after a count that make it a purchase in the Consolidation (never a number
# alone, "20", which could be a count or the bid)
_BUY_PLACE = re.compile(r"(?:(?:army )?units? )?(?:in|at|@) ")


def _parse_commit(w: WordCursor) -> Commit:
    # rules: 003 "Turn off the lights" commits 0 Army Units: in the Dragon step '0 from P1' says the same
    count = w.count("the unit count", 0 if w.step == "dragon" else 1)  # "all from P6": ALL
    w.units()
    if count == ALL and not w.accept("from"):  # "commit all my units", "commit everything": from where?
        # rules: 003 Determine Protector US step -- units are committed from Provinces ("sac 2 on Province#6"), and
        # 'all' stands for a number only with its Province (assumption DM_ALL)
        raise w.fail("'all' commits every unit of yours in one Province, so it needs its Province: write 'all from P6' "
                     "for each Province you commit from ('all from P6 and P7'), or the counts ('2 from P6')")
    if count != ALL:
        w.expect("from", "the unit count")
    src = w.province("the province")
    sac = w.number("the sacrifice", 0) if w.accept("sac", "sacrifice") else None
    if sac is not None and count != ALL and sac > count:  # with 'all': checked on the number it becomes
        raise w.fail(f"sac {sac} is more than the {count} units committed")
    w.end()
    return Commit(src, count, sac)


def _parse_ability(w: WordCursor, name: str) -> Ability:
    if name == "fight_fire_with_fire":
        value = w.number("the number of Highmagisters", 1)
        w.end()
        return Ability(name, value)
    if name == "palantir":
        got = w.got()
        words = [x for x in w.rest()[1].split() if x not in ("the", "deck")]
        if words not in (["sea"], ["end"]):
            raise w.fail(f"expected 'Sea' or 'The End' after Palantír, {got}")
        return Ability(name, arg=words[0])
    if name == "sanctum":
        mode = w.peek()
        if not w.accept("refresh", "gain"):
            raise w.fail(f"expected 'refresh' or 'gain' after Sanctum, {w.got()}")
        raw, norm = w.rest()
        key = SANCTUM_ALIASES.get(tuple(norm.split()))
        if key is None:
            known = ", ".join(SANCTUM_ABILITIES.values())
            raise w.fail(f"unknown ability {echo(raw)} after 'Sanctum {mode}'; expected one of {known}")
        return Ability(name, arg=f"{mode} {key}")
    w.end()
    return Ability(name)
