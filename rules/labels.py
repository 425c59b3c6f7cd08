"""Every English word the engine shows a player, in one place, keyed by stable ids.

The ids are those of HANDS.md; the app translates by id, so nothing here is repeated in
templates. Problem texts are ``str.format`` templates over the problem's ``params``.
"""

VARIANTS = {
    "slovenian-4": "Slovenian tarok, 4 players",
    "slovenian-3": "Slovenian tarok, 3 players",
    "slovenian-2": "Slovenian tarok, 2 players",
    "czech": "Czech tarok",
    "zwanzigerrufen": "Zwanzigerrufen",
    "french-3": "French tarot, 3 players",
    "french-4": "French tarot, 4 players",
    "french-5": "French tarot, 5 players",
}

PRESETS = {
    "seed": "as the seed text",
    "tarzs": "Slovenian federation (TARZS)",
    "fft": "French federation (FFT 2012)",
}

CONTRACTS = {
    # every variant
    "redeal": "redeal",
    "adjustment": "adjustment",
    # Slovenian
    "three": "three",
    "two": "two",
    "one": "one",
    "solo-three": "solo three",
    "solo-two": "solo two",
    "solo-one": "solo one",
    "solo-without": "solo without",
    "piccolo": "piccolo",
    "beggar": "beggar",
    "open-beggar": "open beggar",
    "colour-valat": "colour valat",
    "valat": "valat",
    "klop": "klop",
    "game": "game",
    # Czech
    "first-obligation": "first obligation",
    "second-obligation": "second obligation",
    "trojka": "trojka",
    "solo": "solo",
    "varsovia": "varsovia",
    # Zwanzigerrufen
    "rufer": "rufer",
    "suit-solo": "suit solo",
    # French
    "petite": "petite",
    "garde": "garde",
    "garde-sans": "garde sans",
    "garde-contre": "garde contre",
}

BONUSES = {
    "trula": "trula",
    "kings": "kings",
    "pagat-ultimo": "pagat ultimo",
    "king-ultimo": "king ultimo",
    "trulapagat": "trulapagat",
    "valat": "valat",
    "mondfang": "mondfang",
    "absolut": "absolut",
    "trull": "trull",
    "king-trull": "king trull",
    "mond-caught": "mond caught",
    "petit-au-bout": "petit au bout",
    "poignee": "poignée",
    "chelem": "chelem",
}

# Short forms for a paper-style note on the sheet ("+44 two tr.(K)").
BONUS_ABBREVIATIONS = {
    "trula": "tr.",
    "kings": "k.",
    "pagat-ultimo": "p.u.",
    "king-ultimo": "k.u.",
    "trulapagat": "t.p.",
    "valat": "val.",
    "mondfang": "mf.",
    "absolut": "abs.",
    "trull": "trull",
    "king-trull": "k.trull",
    "mond-caught": "mond",
    "petit-au-bout": "p.a.b.",
    "poignee": "poi.",
    "chelem": "chelem",
}

DECLARATIONS = {
    "trumps-10": "10–12 trumps",
    "no-trumps": "no trump (or pagat alone)",
    "trumps-8": "8–9 trumps",
    "trumps-1": "1–2 trumps",
    "trul": "trul",
    "honours": "honours",
    "four-kings": "four kings",
}

SWITCHES = {
    "values": "contract values",
    "bonus_values": "bonus values (silent, announced)",
    "round_difference": "round the difference to",
    "contra_scope": "a game contra multiplies",
    "max_contra": "highest contra",
    "defenders_announce": "defenders may announce",
    "klop_scoring": "klop scoring",
    "mondfang": "mondfang",
    "radelci": "radelci",
    "radelc_penalty": "penalty per unused radelc",
    "settlement": "settlement",
    "declarations_payer": "declarations are paid by",
    "valat_scoring": "valat scoring",
    "premium_payer": "premiums are paid by",
}

SWITCH_CHOICES = {
    ("contra_scope", "hand"): "the whole hand",
    ("contra_scope", "item"): "the game only",
    ("klop_scoring", "seed"): "minus own points, +10 without a trick",
    ("klop_scoring", "tarzs"): "full −70 / empty +70",
    ("settlement", "pairwise"): "every pair settles",
    ("settlement", "average"): "against the average",
    ("declarations_payer", "side"): "the other side",
    ("declarations_payer", "individual"): "each other player",
    ("valat_scoring", "sum"): "added to everything",
    ("valat_scoring", "plus-game"): "game and valat only",
    ("valat_scoring", "replaces-game"): "valat only",
    ("premium_payer", "individual"): "the holder alone",
    ("premium_payer", "side"): "the holder's side",
}

# French poignée levels.
POIGNEE_LEVELS = {"simple": "simple", "double": "double", "triple": "triple"}

SIDES = {"declarer": "declarer's side", "defenders": "defenders"}
# The roles of a hand as a form names them (a family may name them its own way: French taker).
ROLES = {"declarer": "declarer", "partner": "partner", "defenders": "defenders"}
# French: the taker (with a called partner in five) plays the attack against the defence.
FRENCH_ROLES = {"declarer": "taker", "partner": "called partner", "defenders": "defence"}
FRENCH_SIDES = {"declarer": "attack", "defenders": "defence"}

# Contra levels: 1 contra ×2, 2 re ×4, 3 sub ×8, 4 mort ×16.
CONTRA_WORDS = {1: "contra", 2: "re", 3: "sub", 4: "mort"}
# Zwanzigerrufen names the levels its own way (its variant's ``contra_words``).
ZWANZIGERRUFEN_CONTRA_WORDS = {1: "contra", 2: "recontra", 3: "subcontra"}

LINE_WORDS = {
    "announced": "announced",
    "silent": "silent",
    "lost": "lost",
    "failed": "failed",
    "by defenders": "by the defenders",
    "difference": "difference",
    "radelc": "radelc",
    "adjustment": "adjustment",
    "radelc-penalty": "unused radelci",
    "made": "made",
    "french-game": "{contract} {points}, {needed} needed with {oudlers} oudlers: "
    "(25 + difference {difference}) ×{multiplier}",
    "poignee": "{bonus} {level} {value} shown by {player}, to the {side}",
    "poignee-level": "{level} ({trumps} trumps)",
    "level": "level",
    "pays": "pays",
    "pay": "pay",
    "points": "points",
    "no trick": "no trick",
    "i-play": "I play",  # a two-player note: "Ana: I play, 40"
}

PROBLEMS = {
    "not-an-object": "must be a JSON object",
    "not-a-list": "must be a list",
    "not-a-string": "must be text",
    "not-a-boolean": "must be true or false",
    "not-an-integer": "must be a whole number",
    "not-a-number": "must be a number",
    "not-a-half": "must be a whole number or end in .5",
    "not-hundredths": "must have at most two decimals",
    "missing": "is required",
    "unknown-key": "unknown field {key!r}",
    "unused-field": "is not used in {contract}",
    "out-of-range": "must be between {low} and {high}",
    "at-least": "must be at least {low}",
    "at-most": "must be at most {high}",
    "unknown-format": "format {value!r} is not known; this engine reads format 1",
    "unknown-variant": "unknown variant {value!r}; known variants: {known}",
    "unknown-preset": "unknown preset {value!r}; {variant} has: {known}",
    "unknown-switch": "unknown switch {value!r}; {variant} has: {known}",
    "bad-switch-value": "{value!r} is not allowed; choose one of: {known}",
    "unknown-contract": "unknown contract {value!r}; these rules have: {known}",
    "unknown-bonus": "unknown bonus {value!r}; this contract allows: {known}",
    "bonus-not-allowed": "{bonus} is not allowed in {contract}",
    "no-bonuses": "{contract} takes no bonuses",
    "duplicate-bonus": "{bonus} is listed twice",
    "unknown-player": "{value!r} is not dealt in this hand",
    "unknown-sheet-player": "{value!r} is not seated at this table",
    "duplicate-player": "{value!r} is listed twice",
    "player-count": "{variant} is played by {counts} players, not {count}",
    "partner-is-declarer": "the partner cannot be the declarer",
    "not-every-player": "needs an entry for every player dealt in: {players}",
    "unknown-side": "must be 'declarer' or 'defenders'",
    "contra-not-allowed": "no contra is allowed here",
    "contra-unannounced": "only an announced bonus can have a contra of its own",
    "contra-too-high": "the highest contra in these rules is {high}",
    "cannot-announce": "{bonus} cannot be announced",
    "silent-not-made": "a silent {bonus} that was not made is not recorded",
    "defenders-cannot-announce": "the defenders cannot announce in these rules",
    "player-required": "{bonus} needs the player",
    "player-not-used": "{bonus} takes no player",
    "level-required": "{bonus} needs its level: {known}",
    "level-not-used": "{bonus} takes no level",
    "unknown-level": "unknown level {value!r}; choose one of: {known}",
    "own-rules-in-sheet": "a hand in a sheet takes the sheet's rules",
    "other-variant-in-sheet": "a hand in a sheet takes the sheet's variant",
    "radelci-in-sheet": "a sheet counts radelci itself",
    "radelci-off": "these rules play without radelci",
    "points-total": "the piles add up to {total}, more than the {high} card points of the deck",
    "trulapagat-and-part": "trulapagat already contains {bonus}",
    "alone-only": "{bonus} needs a called king (a partner in a four-player hand)",
    "empty-sheet": "a sheet needs at least one hand",
    "too-many-hands": "a sheet holds at most {limit} hands (one session), not {count}",
    "control-character": "must not contain control characters",
    "too-long": "must be at most {limit} characters long",
    "slovenian-2-points-total": "the piles add up to {total}; all 54 cards are taken, so the "
    "two piles add up to {low} or {high}",
    # Text that is not JSON the engine reads (rules.jsontext).
    "json-syntax": "not readable JSON: {error}",
    "json-too-large": "not readable JSON: larger than {limit} bytes",
    "json-not-utf8": "not readable JSON: not UTF-8 text",
    "json-too-deep": "not readable JSON: nested deeper than {limit} levels",
    "json-not-a-number": "not readable JSON: {value} is not a number JSON has",
    "json-number-too-long": "not readable JSON: a number longer than {limit} characters",
    "json-number-out-of-range": "not readable JSON: the number {value} is out of range",
    "no-adjustments": "an adjustment row needs at least one adjustment",
    "unknown-card": "{value!r} is not a card of the {family} deck",
    "duplicate-card": "{value!r} is in the pile twice",
    # French
    "french-whole-points": "a four-player pile always counts whole points (no .5)",
    "french-oudlers-points": "a pile with {oudlers} oudlers counts between {low} and {high} "
    "points, not {points}",
    "french-chelem-result": "a chelem made by the {side} but the contract was {result}",
    "french-poignee-trumps": "the poignées shown need {total} trumps, more than the 22 of the "
    "deck (in {players} players: simple {simple}, double {double}, "
    "triple {triple} trumps)",
    # Czech, Zwanzigerrufen, French: add their problems here, one place for every text.
    # Czech
    "second-obligation-pagat": "second obligation needs its pagat ultimo, announced by the "
    "declarer's side",
    "second-obligation-pagat-side": "the pagat ultimo of a second obligation is the declarer's",
    "second-obligation-pagat-announced": "the pagat ultimo of a second obligation is announced",
    "valat-declarer-points": "a valat made by the declarer's side leaves it more than 35 card "
    "points, not {points}",
    "valat-defenders-points": "a valat made by the defenders leaves the declarer's side fewer "
    "than 35 card points, not {points}",
    "valat-and-pagat": "the pagat cannot win the last trick when the other side made the "
    "valat ({valat})",
    "duplicate-declaration": "{player} declares {declaration} twice",
    "declaration-one-holder": "{declaration} is already declared by {other}; only one player "
    "can hold it",
    "declarations-incompatible": "{player} cannot declare {declaration} together with {other}",
    "varsovia-points-total": "the piles add up to {total}; every card is taken in varsovia, so "
    "they add up to {low}–{high}",
    "tricks-total": "the tricks add up to {total}, not {tricks}",
    "no-trick-points": "a player who took no trick has no card points, not {points}",
    # Zwanzigerrufen
    "absolut-silent": "a silent absolut is not listed: it follows from the points",
    "absolut-disagrees": "does not agree with the points: the {side} took {points} card points "
    "and absolut needs 56",
    "valat-points": "a valat made by the {side} needs points = {points}",
}
