"""Properties that hold for every variant in the registry (hypothesis)."""

from decimal import Decimal

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import RulesError, score_hand, score_sheet, variants

NAMES = ["Ana", "Bor", "Cene", "Dani", "Eva"]
PROPERTY = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def deals(variant, rules):
    return sorted(c for c in rules.contracts if variant.is_deal(c))


def contra_bonuses(variant, rules, contract):
    """The bonuses of a contract that may be announced and take a contra of their own."""
    if not rules.max_contra:
        return []
    spec = rules.contracts[contract]
    return sorted(b for b in spec.bonuses if variant.bonus_specs[b].announce)


def games(keep):
    """Every (variant, preset, contract) of a deal whose rules and contract ``keep`` takes."""
    return [
        (variant, preset, contract)
        for variant in variants()
        for preset in sorted(variant.presets)
        for rules in [variant.rules({"preset": preset})]
        for contract in deals(variant, rules)
        if keep(variant, rules, contract)
    ]


# The games the contra properties are about: a bonus can be announced and contra'd; the
# game takes a contra.
CONTRA_BONUS_GAMES = games(contra_bonuses)
CONTRA_GAMES = games(lambda variant, rules, contract: (
    rules.max_contra and rules.contracts[contract].takes_contra))


@st.composite
def hands(draw, variant=None, contra_bonus=False, game_contra=False):
    """Plausible hands built from what each variant declares; many are valid, some are not.

    ``game_contra``: only hands whose game contra can still be raised, in the games that
    take one.

    ``contra_bonus``: only hands whose first bonus is announced with a contra it can still
    raise (and no game contra unless it has one of its own), in the games that have such a
    bonus: what the bonus-contra property needs, without drawing hands it would reject."""
    if contra_bonus or game_contra:
        games = CONTRA_BONUS_GAMES if contra_bonus else CONTRA_GAMES
        variant, preset, contract = draw(st.sampled_from(games))
    else:
        variant = variant or draw(st.sampled_from(variants()))
        preset = draw(st.sampled_from(sorted(variant.presets)))
    rules = variant.rules({"preset": preset})
    players = NAMES[: draw(st.sampled_from(variant.player_counts))]
    if not (contra_bonus or game_contra):
        contract = draw(st.sampled_from(deals(variant, rules)))
    spec = rules.contracts[contract]
    first = draw(st.sampled_from(contra_bonuses(variant, rules, contract))) if contra_bonus else None
    data = {"variant": variant.id, "rules": {"preset": preset}, "players": players,
            "contract": contract}
    declarer = draw(st.sampled_from(players))
    others = [p for p in players if p != declarer]
    top = variant.card_points
    for field in sorted(spec.fields):
        if field not in spec.required and draw(st.booleans()):
            continue
        if field == "declarer":
            data[field] = declarer
        elif field in ("partner", "announcer"):
            data[field] = draw(st.sampled_from(others + [None]))
        elif field == "points":
            halves = draw(st.integers(0, 2 * top)) if variant.half_points else 2 * draw(
                st.integers(0, top))
            data[field] = halves // 2 if halves % 2 == 0 else Decimal(halves) / 2
        elif field == "made":
            data[field] = draw(st.booleans())
        elif field in ("level", "oudlers"):
            data[field] = draw(st.integers(1 if field == "level" else 0, 3))
        elif field == "contra":
            highest = rules.max_contra - 1 if game_contra else rules.max_contra
            data[field] = {"game": draw(st.integers(0, highest))}
        elif field in ("points_by_player", "tricks_by_player"):
            data[field] = {p: draw(st.integers(0, top // len(players) + 8)) for p in players}
        elif field == "declarations":
            data[field] = draw(st.lists(st.fixed_dictionaries({
                "player": st.sampled_from(players),
                "name": st.sampled_from(["trumps-10", "no-trumps", "trumps-8", "trumps-1",
                                         "trul", "honours", "four-kings"]),
            }), max_size=2))
    bonuses = []
    for name in ([first] if first else []) + sorted(set(spec.bonuses) - {first}):
        if name != first and draw(st.booleans()):
            continue
        bonus_spec = variant.bonus_specs[name]
        announced = name == first or (bonus_spec.announce and draw(st.booleans()))
        bonus = {"name": name, "side": draw(st.sampled_from(["declarer", "defenders"])),
                 "announced": announced, "made": draw(st.booleans())}
        if contra_bonus or game_contra:  # no bonus any reader refuses: few hands are wasted
            if announced and not variant.defenders_may_announce(rules):
                bonus["side"] = "declarer"
            if not announced and not bonus_spec.silent_fail:
                bonus["made"] = True
        if name == first:
            bonus["contra"] = draw(st.integers(0, rules.max_contra - 1))
            if not bonus["contra"]:
                data.pop("contra", None)
        elif announced and rules.max_contra:
            bonus["contra"] = draw(st.integers(0, rules.max_contra))
        if bonus_spec.player:
            bonus["player"] = draw(st.sampled_from(players))
        if bonus_spec.levels:
            bonus["level"] = draw(st.sampled_from(bonus_spec.levels))
        bonuses.append(bonus)
    if bonuses:
        data["bonuses"] = bonuses
    return data


def scored(data):
    try:
        return score_hand(data)
    except RulesError:
        assume(False)


@PROPERTY
@given(hands())
def test_zero_sum_families_sum_to_zero(data):
    result = scored(data)
    if any(v.id == data["variant"] and v.zero_sum for v in variants()):
        assert sum(result.amounts.values()) == 0


@PROPERTY
@given(hands())
def test_lines_add_up_to_the_amounts(data):
    result = scored(data)
    for player in result.amounts:
        assert sum(line.amounts.get(player, 0) for line in result.lines) == \
            result.amounts[player]
        assert not isinstance(result.amounts[player], float)


@PROPERTY
@given(hands(game_contra=True))
def test_raising_the_game_contra_doubles_exactly_what_it_targets(data):
    level = data.get("contra", {}).get("game", 0)
    before = scored(data)
    raised = {**data, "contra": {"game": level + 1}}
    try:
        after = score_hand(raised)
    except RulesError:
        assume(False)
    assert [line.item for line in after.lines] == [line.item for line in before.lines]
    for old, new in zip(before.lines, after.lines, strict=True):
        factor = new.multiplier // old.multiplier
        assert factor in (1, 2)
        assert new.amounts == {p: v * factor for p, v in old.amounts.items()}
        if new.item == "game":  # a made valat may have replaced the game and its contra
            assert factor == 2


@PROPERTY
@given(hands(contra_bonus=True))
def test_raising_a_bonus_contra_doubles_that_bonus_only(data):
    bonuses = data.get("bonuses", [])
    announced = [i for i, b in enumerate(bonuses) if b["announced"]]
    assume(announced)
    i = announced[0]
    # A bonus's own contra replaces a game contra that reached it (Slovenian "hand" scope),
    # so doubling is promised from a bonus that has its own contra or no game contra.
    assume(bonuses[i].get("contra", 0) or not data.get("contra", {}).get("game", 0))
    before = scored(data)
    raised_bonus = {**bonuses[i], "contra": bonuses[i].get("contra", 0) + 1}
    raised = {**data, "bonuses": [*bonuses[:i], raised_bonus, *bonuses[i + 1:]]}
    try:
        after = score_hand(raised)
    except RulesError:
        assume(False)
    changed = [(old, new) for old, new in zip(before.lines, after.lines, strict=True)
               if old != new]
    for old, new in changed:
        assert new.amounts == {p: v * 2 for p, v in old.amounts.items()}
    assert len(changed) <= 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)


@PROPERTY
@given(JSON)
def test_random_json_never_escapes_the_error_type(data):
    for score in (score_hand, score_sheet):
        try:
            score(data)
        except RulesError:
            pass


@PROPERTY
@given(hands(), st.data())
def test_a_hand_with_one_field_broken_never_escapes_the_error_type(data, draw):
    key = draw.draw(st.sampled_from(sorted(data)))
    broken = {**data, key: draw.draw(JSON)}
    try:
        score_hand(broken)
    except RulesError:
        pass
    sheet = {"variant": data["variant"], "players": data["players"],
             "hands": [{k: v for k, v in broken.items() if k not in ("variant", "rules")}]}
    try:
        score_sheet(sheet)
    except RulesError:
        pass
