"""The worked examples of the Piktas rulebook (section 11), transcribed verbatim as Python expressions.

Each line is `call == expected` or `call is None`; `DECK` is the canonical deck of section 2.
"""

from __future__ import annotations

SUITS = "OWKUM"
PAIRS = [a + b for i, a in enumerate(SUITS) for b in SUITS[i + 1 :]]
DECK = (
    [f"{suit}{value}" for suit in SUITS for value in range(1, 11)]
    + [f"T{pair}{copy}" for pair in PAIRS for copy in (1, 2)]
    + ["V1", "V2"]
)

EXAMPLES = {
    "E1": [
        'unit_points("true_sequence", ["O3","O4","O5","O6","O7","TOW1"]) == 22',
    ],
    "E2": [
        'unit_points("value_sequence", ["O4","W5","K6","U7","M8","O9","TOK1"]) == 18',
    ],
    "E3": [
        'unit_points("mixed_sequence", ["O4","O5","O6","TOW1","W1","W2","TWK1","K9","K10"]) == 21',
    ],
    "E4": [
        'unit_points("suit_run", ["TOW1","O1","O2","O5","O7","O9","O10"]) == 8',
    ],
    "E5": [
        'unit_points("quintet", ["O7","W7","K7","U7","M7"]) == 5',
        'unit_points("quartet", ["O7","W7","K7","U7"]) == 4',
        'unit_points("trio", ["O7","W7","K7"]) == 3',
        'unit_points("duo", ["O7","K7"]) == 2',
    ],
    "E6": [
        'unit_points("duo", ["TKU1","TKU2"]) == 4',
        'unit_points("duo", ["TKU1","TKM1"]) is None',
        'unit_points("duo", ["V1","V2"]) is None',
        'unit_points("trio", ["O7","W7","TOW1"]) is None',
    ],
    "E7": [
        'unit_points("true_sequence", ["TOW1","O1","O2","O3","O4","TOK1"]) == 21',
        'unit_points("true_sequence", ["O6","O7","O8","O9","O10","TOU1"]) == 25',
        'unit_points("true_sequence", ["O3","O4","O5","O6","TOW1"]) is None',
        'unit_points("true_sequence", ["O3","O4","O5","O6","O7","TWK1"]) is None',
        'unit_points("true_sequence", ["O3","O4","TOW1","O6","O7","O8"]) is None',
    ],
    "E8": [
        'unit_points("value_sequence", ["O1","O2","O3","O4","O5","O6"]) is None',
        'unit_points("true_sequence", ["O1","O2","O3","O4","O5","O6"]) == 18',
        'unit_points("value_sequence", ["O4","W5","K6","U7","M8","O9","TWK1"]) is None',
        'unit_points("value_sequence", ["TWK1","W1","O2","K3","U4","M5"]) == 12',
        'unit_points("value_sequence", ["TKU1","K3","W4","U5","M6","TUM1"]) == 15',
        'unit_points("value_sequence", ["TOW1","K3","W4","U5","M6","TKU1"]) is None',
    ],
    "E9": [
        'unit_points("mixed_sequence", ["O1","O2","O3","TOW1","W7","W8"]) == 15',
        'unit_points("mixed_sequence", ["O1","O2","TOW1","W5","W6","TOW2","O9","O10"]) == 20',
        'unit_points("mixed_sequence", ["O3","O4","O5","TOW1","W4","W5"]) == 12',
        'unit_points("mixed_sequence", ["O3","O4","O5","O6","TOW1","W2"]) is None',
        'unit_points("mixed_sequence", ["O4","O5","O6","TOK1","W1","W2"]) is None',
        'unit_points("mixed_sequence", ["O1","O2","O3","TOW1","O6","O7"]) is None',
        'unit_points("mixed_sequence", ["O1","O2","TOW1","W4","W5"]) is None',
    ],
    "E10": [
        'unit_points("suit_run", ["TOW1","TOW2","TOK1","TOK2","TOU1","TOM1"]) == 12',
        'unit_points("suit_run", ["O1","O2","O5","O7","O9","W10"]) is None',
        'unit_points("suit_run", ["TOW1","O1","O2","O5","O7"]) is None',
    ],
    "E11": [
        'evaluate(["W7","U7","M7","O4","TOW1","K10"], ["O5","O6","W1","W2","TWK1","K9"]) == (26, 21, 10, 10)',
    ],
    "E12": [
        'evaluate(["O3","O4","O5","O6","O7","TOW1"], ["TOW2","W1","W3","W5","W7","W9"]) == (41, 26, 9, 7)',
    ],
    "E13": [
        'evaluate(["O3","W3","K8","U8"], ["M1","W6"]) == (2, 2, 8, 8)',
    ],
    "E14": [
        'evaluate(["O7","W7","K2"], ["K7","M5"]) == (3, 3, 7, 7)',
    ],
    "E15": [
        'evaluate(["O7","W7","K7","U7","M7"], []) == (7, 5, 7, 7)',
        'evaluate(["O7","W7","K7","U7","M7","O3"], ["W3"]) == (9, 5, 7, 7)',
    ],
    "E16": [
        'evaluate(["O7","W7","K7","V1"], ["O2"]) == (3, 3, 7, 7)',
        'evaluate(["O7","W7"], ["V2","K7"]) == (5, 3, 7, 7)',
    ],
    "E17": [
        'evaluate(["U3","K5"], ["O3","W3","O7","W7","K7","O5"]) == (7, 3, 5, 5)',
    ],
    "E18": [
        'evaluate(["O5"], ["W5","TKU1","TKU2"]) == (4, 4, 0, 5)',
    ],
    "E19": [
        'evaluate(["O6","O7","O8","O9","O10","TOU1"], []) == (27, 25, 10, 10)',
    ],
    "E20": [
        'evaluate(["O1","O2","O3","O4","O5","O6"], ["W3","W4","W5","W6","W7","W8"]) == (28, 20, 8, 6)',
    ],
    "E21": [
        'evaluate(["O2","O3","O4","O5","O6","TOK1"], ["K4","W5","U6","M7","W8","M1"]) == (38, 21, 8, 6)',
    ],
    "E22": [
        'evaluate(["O1","O2","O3","O4","O5","TOW1"], ["W6","W7","W8","O9","O10","U1"]) == (40, 20, 10, 5)',
        'evaluate(["O1","O2","O3","O4","O5","TOW1"], ["W2","W3","W4","O9","O10","U7"]) == (39, 20, 10, 5)',
    ],
    "E23": [
        'evaluate(["U3","M7"], ["O3","W3","O7","W7","K7"]) == (9, 4, 7, 7)',
    ],
    "E24": [
        'evaluate(["O4","O5","TOW1","W8","W9","TWK2"], ["K1","K2","K3","U7","M7","TKU1"]) == (24, 20, 9, 9)',
    ],
    "E25": [
        'evaluate(["TWU1","W1","W4"], ["W6","W9","W10","U2","K5"]) == (9, 7, 10, 4)',
    ],
    "E26": [
        'evaluate(["O3","O4","O5","O6","O7","TOW1"], ["TOW2","W1","W3","W5","W7","W9"], trump_multi_unit=False) == (31, 22, 9, 7)',
    ],
    "E27": [
        'evaluate(["O3","O4","O5","O6","O7","TOW1"], ["TOW2","W1","W3","W5","W7","W9"], highest_unit_only=True) == (26, 26, 7, 7)',
    ],
    "E28": [
        'evaluate(["O3","O4","O5","O6","TOW1","V1"], ["K9"]) == (0, 0, 0, 6)',
        'evaluate(["O3","O4","O5","O6","TOW1","V1"], ["K9"], wild_voids=True) == (24, 22, 7, 6)',
    ],
    "E29": [
        'winners([["O7","W7","K7","U7","M7"], ["O2","W2","K2","O9","W9"]], []) == [0]',
    ],
    "E30": [
        'winners([["O7","W7","K7","U7"], ["TKU1","TKU2"]], ["M1"]) == [0]',
    ],
    "E31": [
        'winners([["U2","M9"], ["U3","M8"], ["U9","M2"]], ["O7","W7","K7"]) == [0, 2]',
    ],
    "E32": [
        'winners([["U2","M9"], ["U9","M2"]], ["O7","W7","K7"]) == [0, 1]',
    ],
    "E33": [
        'legal_actions(["O3","K7","TOW1","V1","M2","U9"], [["W5"],["K2","V2"],["TUM1"]]) == ["pass", "swap:K7:TUM1", "swap:K7:W5", "swap:M2:TUM1", "swap:M2:W5", "swap:O3:TUM1", "swap:O3:W5", "swap:TOW1:TUM1", "swap:TOW1:W5", "swap:U9:TUM1", "swap:U9:W5", "void:V1:TUM1", "void:V1:W5"]',
    ],
    "E34": [
        'legal_actions(["K1","K2","K3","K4","K5","K6"], [["O1","V1"],["O2","V2"],["O3"]]) == ["pass", "swap:K1:O3", "swap:K2:O3", "swap:K3:O3", "swap:K4:O3", "swap:K5:O3", "swap:K6:O3"]',
    ],
    "E35": [
        'deal_field_card(["O5","K2"]) == {"stack": ["O5"], "deck": ["K2"]}',
        'deal_field_card(["V2","W3","K1"]) == {"stack": ["W3","V2"], "deck": ["K1"]}',
        'deal_field_card(["V1","V2","M8","O1"]) == {"stack": ["M8","V2","V1"], "deck": ["O1"]}',
        'deal_field_card(["V1"]) == {"stack": ["V1"], "deck": []}',
        'deal_field_card([]) == {"stack": [], "deck": []}',
    ],
    "E36": [
        'initial_deal(DECK, 2, 1) == {"hands": [["O1","O3","O5","O7","O9","W1"], ["O2","O4","O6","O8","O10","W2"]], "field": [["W3"],["W4"],["W5"]], "deck": DECK[15:]}',
    ],
    "E37": [
        'initial_deal(DECK[:12] + ["V1"] + DECK[12:70] + ["V2"], 2, 0) == {"hands": [["O2","O4","O6","O8","O10","W2"], ["O1","O3","O5","O7","O9","W1"]], "field": [["W3","V1"],["W4"],["W5"]], "deck": DECK[15:70] + ["V2"]}',
    ],
    "E39": [
        'betting_actions(0, [0,0,0], [90,90,90], [False,False,False], 1) == ["fold","raise","stay"]',
        'betting_actions(10, [0,10,0], [90,80,90], [False,False,False], 2) == ["fold","match","raise"]',
        'betting_actions(30, [20,30,0], [70,60,90], [False,False,False], 0) == ["fold","match"]',
        'betting_actions(10, [0,10,0], [15,80,90], [False,False,False], 2) == ["fold","match"]',
        'betting_actions(10, [0,10,0], [0,80,90], [True,False,False], 2) == ["fold","match","raise"]',
    ],
    "E40": [
        "split_pot(45, [0,2], 1, 4) == [22, 0, 23, 0]",
        "split_pot(40, [3], 0, 4) == [0, 0, 0, 40]",
    ],
    "E41": [
        'evaluate(["O3","O4","O5","O6","O7","V1"], ["K2","W5","TOW1","V2","M9","U1","O1"]) == (24, 22, 7, 7)',
        'evaluate(["O3","O4","O5","O6","O7"], ["K2","W5","TOW1","V2","M9","U1","O1","V1"]) == (26, 22, 7, 7)',
    ],
    "E42": [
        'betting_actions(10, [10,0,10], [80,90,80], [False,False,False], 1) == ["fold","match","raise"]',
    ],
}


def split_example(line: str) -> tuple[str, str]:
    """The call and the expected value of an example line."""
    if line.endswith(" is None"):
        return line.removesuffix(" is None"), "None"
    call, expected = line.rsplit(" == ", 1)
    return call, expected
