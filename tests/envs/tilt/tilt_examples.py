"""The worked examples of the Tilt rulebook (section 11) that call the Checkable API, transcribed verbatim.

`BLOCKS[name]` is the text of the example's JSON block: one `{"fn", "args", "expect"}` object or a list of them.
"""

from __future__ import annotations

import json

BLOCKS = {
    "E1": r"""[
{"fn": "category", "args": {"cards": ["C8", "P6", "S3", "H1"], "hazards": []}, "expect": "High Card"},
{"fn": "evaluate", "args": {"cards": ["C8", "P6", "S3", "H1"], "hazards": []}, "expect": [1, 0, 0, 0, 8, 6, 3, 1]}
]
""",
    "E2": r"""[
{"fn": "category", "args": {"cards": ["C5", "P5", "S8", "H2"], "hazards": []}, "expect": "One Pair"},
{"fn": "evaluate", "args": {"cards": ["C5", "P5", "S8", "H2"], "hazards": []}, "expect": [1, 0, 1, 1, 5, 8, 2, 0]}
]
""",
    "E3": r"""[
{"fn": "category", "args": {"cards": ["P1", "P4", "P6", "K11"], "hazards": []}, "expect": "Flush"},
{"fn": "evaluate", "args": {"cards": ["P1", "P4", "P6", "K11"], "hazards": []}, "expect": [1, 0, 2, 2, 11, 6, 4, 1]}
]
""",
    "E4": r"""[
{"fn": "category", "args": {"cards": ["C3", "P4", "S5", "H6"], "hazards": []}, "expect": "Straight"},
{"fn": "category", "args": {"cards": ["C6", "P7", "S8", "K9"], "hazards": []}, "expect": "Straight"},
{"fn": "evaluate", "args": {"cards": ["C6", "P7", "S8", "K9"], "hazards": []}, "expect": [1, 0, 3, 3, 9, 0, 0, 0]}
]
""",
    "E5": r"""[
{"fn": "category", "args": {"cards": ["C4", "P4", "S4", "H7"], "hazards": []}, "expect": "Three of a Kind"},
{"fn": "evaluate", "args": {"cards": ["C4", "P4", "S4", "H7"], "hazards": []}, "expect": [1, 0, 4, 4, 4, 7, 0, 0]}
]
""",
    "E6": r"""[
{"fn": "category", "args": {"cards": ["C2", "P2", "S6", "H6"], "hazards": []}, "expect": "Two Pair"},
{"fn": "evaluate", "args": {"cards": ["C2", "P2", "S6", "H6"], "hazards": []}, "expect": [1, 0, 5, 5, 6, 2, 0, 0]}
]
""",
    "E7": r"""[
{"fn": "category", "args": {"cards": ["C2", "C6", "S2", "S6"], "hazards": []}, "expect": "Parley"},
{"fn": "evaluate", "args": {"cards": ["C2", "C6", "S2", "S6"], "hazards": []}, "expect": [1, 0, 6, 6, 6, 2, 0, 0]}
]
""",
    "E8": r"""[
{"fn": "category", "args": {"cards": ["H3", "H4", "H5", "H6"], "hazards": []}, "expect": "Straight Flush"},
{"fn": "evaluate", "args": {"cards": ["H3", "H4", "H5", "H6"], "hazards": []}, "expect": [1, 0, 7, 7, 6, 0, 0, 0]}
]
""",
    "E9": r"""[
{"fn": "category", "args": {"cards": ["S7", "S8", "K9", "K10"], "hazards": []}, "expect": "Straight Flush"},
{"fn": "evaluate", "args": {"cards": ["S7", "S8", "K9", "K10"], "hazards": []}, "expect": [1, 0, 7, 7, 10, 0, 0, 0]}
]
""",
    "E10": r"""[
{"fn": "category", "args": {"cards": ["C7", "P7", "S7", "H7"], "hazards": []}, "expect": "Four of a Kind"},
{"fn": "evaluate", "args": {"cards": ["C7", "P7", "S7", "H7"], "hazards": []}, "expect": [1, 0, 8, 8, 7, 0, 0, 0]}
]
""",
    "E11": r"""[
{"fn": "category", "args": {"cards": ["K9", "K10", "K11", "K12"], "hazards": []}, "expect": "Command"},
{"fn": "evaluate", "args": {"cards": ["K9", "K10", "K11", "K12"], "hazards": []}, "expect": [1, 0, 9, 9, 12, 11, 10, 9]}
]
""",
    "E12": r"""[
{"fn": "category", "args": {"cards": ["K11", "K12", "P1", "S2"], "hazards": []}, "expect": "High Card"},
{"fn": "evaluate", "args": {"cards": ["K11", "K12", "P1", "S2"], "hazards": []}, "expect": [1, 0, 0, 0, 12, 11, 2, 1]},
{"fn": "category", "args": {"cards": ["C1", "P2", "S3", "H4"], "hazards": []}, "expect": "Straight"},
{"fn": "evaluate", "args": {"cards": ["C1", "P2", "S3", "H4"], "hazards": []}, "expect": [1, 0, 3, 3, 4, 0, 0, 0]}
]
""",
    "E13": r"""[
{"fn": "compare", "args": {"a": ["C4", "P4", "S4", "H7"], "b": ["C2", "P2", "S6", "H6"], "hazards": []}, "expect": -1},
{"fn": "compare", "args": {"a": ["C1", "P2", "S3", "H4"], "b": ["S1", "S3", "S5", "S7"], "hazards": []}, "expect": 1}
]
""",
    "E14": r"""[
{"fn": "compare", "args": {"a": ["C5", "P5", "S8", "H2"], "b": ["S5", "H5", "C7", "P6"], "hazards": []}, "expect": 1},
{"fn": "winners", "args": {"hands": [["C5", "P5", "S8", "H2"], ["S5", "H5", "P8", "C2"], ["C3", "P3", "S8", "H7"]], "hazards": []}, "expect": [0, 1]}
]
""",
    "E15": r"""[
{"fn": "category", "args": {"cards": ["C1", "P2", "S3", "H5", "C6", "P8"], "hazards": ["STSH"]}, "expect": "High Card"},
{"fn": "evaluate", "args": {"cards": ["C1", "P2", "S3", "H5", "C6", "P8"], "hazards": ["STSH"]}, "expect": [1, 0, 0, 0, 8, 6, 5, 3, 2, 1]},
{"fn": "category", "args": {"cards": ["C1", "P1", "S3", "H5", "C6", "P8"], "hazards": ["STSH"]}, "expect": "One Pair"},
{"fn": "evaluate", "args": {"cards": ["C1", "P1", "S3", "H5", "C6", "P8"], "hazards": ["STSH"]}, "expect": [1, 0, 1, 1, 1, 8, 6, 5, 3, 0]},
{"fn": "category", "args": {"cards": ["C1", "P1", "S3", "H3", "C6", "P8"], "hazards": ["STSH"]}, "expect": "Two Pair"},
{"fn": "evaluate", "args": {"cards": ["C1", "P1", "S3", "H3", "C6", "P8"], "hazards": ["STSH"]}, "expect": [1, 0, 2, 2, 3, 1, 8, 6, 0, 0]}
]
""",
    "E16": r"""[
{"fn": "category", "args": {"cards": ["C4", "P4", "S4", "H1", "C6", "P8"], "hazards": ["STSH"]}, "expect": "Three of a Kind"},
{"fn": "evaluate", "args": {"cards": ["C4", "P4", "S4", "H1", "C6", "P8"], "hazards": ["STSH"]}, "expect": [1, 0, 3, 3, 4, 8, 6, 1, 0, 0]},
{"fn": "category", "args": {"cards": ["C2", "C6", "S2", "S6", "P1", "H8"], "hazards": ["STSH"]}, "expect": "Parley"},
{"fn": "evaluate", "args": {"cards": ["C2", "C6", "S2", "S6", "P1", "H8"], "hazards": ["STSH"]}, "expect": [1, 0, 4, 4, 6, 2, 8, 1, 0, 0]},
{"fn": "category", "args": {"cards": ["C5", "P5", "S5", "C7", "P7", "H1"], "hazards": ["STSH"]}, "expect": "Station"},
{"fn": "evaluate", "args": {"cards": ["C5", "P5", "S5", "C7", "P7", "H1"], "hazards": ["STSH"]}, "expect": [1, 0, 5, 5, 5, 7, 1, 0, 0, 0]}
]
""",
    "E17": r"""[
{"fn": "category", "args": {"cards": ["C3", "P4", "S5", "H6", "C7", "P8"], "hazards": ["STSH"]}, "expect": "Straight"},
{"fn": "evaluate", "args": {"cards": ["C3", "P4", "S5", "H6", "C7", "P8"], "hazards": ["STSH"]}, "expect": [1, 0, 6, 6, 8, 0, 0, 0, 0, 0]}
]
""",
    "E18": r"""[
{"fn": "category", "args": {"cards": ["C2", "P2", "S4", "H4", "C5", "P5"], "hazards": ["STSH"]}, "expect": "Three Pair"},
{"fn": "evaluate", "args": {"cards": ["C2", "P2", "S4", "H4", "C5", "P5"], "hazards": ["STSH"]}, "expect": [1, 0, 7, 7, 5, 4, 2, 0, 0, 0]},
{"fn": "category", "args": {"cards": ["S1", "S3", "S4", "S6", "S8", "K12"], "hazards": ["STSH"]}, "expect": "Flush"},
{"fn": "evaluate", "args": {"cards": ["S1", "S3", "S4", "S6", "S8", "K12"], "hazards": ["STSH"]}, "expect": [1, 0, 8, 8, 12, 8, 6, 4, 3, 1]}
]
""",
    "E19": r"""[
{"fn": "category", "args": {"cards": ["C3", "P3", "S3", "H3", "C8", "P1"], "hazards": ["STSH"]}, "expect": "Four of a Kind"},
{"fn": "evaluate", "args": {"cards": ["C3", "P3", "S3", "H3", "C8", "P1"], "hazards": ["STSH"]}, "expect": [1, 0, 9, 9, 3, 8, 1, 0, 0, 0]},
{"fn": "category", "args": {"cards": ["C2", "P2", "S2", "C6", "P6", "H6"], "hazards": ["STSH"]}, "expect": "Colony"},
{"fn": "evaluate", "args": {"cards": ["C2", "P2", "S2", "C6", "P6", "H6"], "hazards": ["STSH"]}, "expect": [1, 0, 10, 10, 6, 2, 0, 0, 0, 0]}
]
""",
    "E20": r"""[
{"fn": "category", "args": {"cards": ["K9", "K10", "K11", "K12", "C3", "P5"], "hazards": ["STSH"]}, "expect": "Command"},
{"fn": "evaluate", "args": {"cards": ["K9", "K10", "K11", "K12", "C3", "P5"], "hazards": ["STSH"]}, "expect": [1, 0, 11, 11, 12, 11, 10, 9, 5, 3]},
{"fn": "category", "args": {"cards": ["C4", "P4", "S4", "H4", "C7", "P7"], "hazards": ["STSH"]}, "expect": "Investment"},
{"fn": "evaluate", "args": {"cards": ["C4", "P4", "S4", "H4", "C7", "P7"], "hazards": ["STSH"]}, "expect": [1, 0, 12, 12, 4, 7, 0, 0, 0, 0]}
]
""",
    "E21": r"""[
{"fn": "category", "args": {"cards": ["S2", "S3", "S6", "P2", "P3", "P6"], "hazards": ["STSH"]}, "expect": "Convoy"},
{"fn": "evaluate", "args": {"cards": ["S2", "S3", "S6", "P2", "P3", "P6"], "hazards": ["STSH"]}, "expect": [1, 0, 13, 13, 6, 3, 2, 0, 0, 0]}
]
""",
    "E22": r"""[
{"fn": "category", "args": {"cards": ["K9", "K10", "K11", "K12", "S3", "S5"], "hazards": ["STSH"]}, "expect": "Redshirts"},
{"fn": "evaluate", "args": {"cards": ["K9", "K10", "K11", "K12", "S3", "S5"], "hazards": ["STSH"]}, "expect": [1, 0, 14, 14, 12, 11, 10, 9, 5, 3]}
]
""",
    "E23": r"""[
{"fn": "category", "args": {"cards": ["C2", "C6", "H2", "H6", "P2", "P6"], "hazards": ["STSH"]}, "expect": "Moon"},
{"fn": "evaluate", "args": {"cards": ["C2", "C6", "H2", "H6", "P2", "P6"], "hazards": ["STSH"]}, "expect": [1, 0, 15, 15, 6, 2, 0, 0, 0, 0]}
]
""",
    "E24": r"""[
{"fn": "category", "args": {"cards": ["H3", "H4", "H5", "H6", "H7", "H8"], "hazards": ["STSH"]}, "expect": "Straight Flush"},
{"fn": "evaluate", "args": {"cards": ["H3", "H4", "H5", "H6", "H7", "H8"], "hazards": ["STSH"]}, "expect": [1, 0, 16, 16, 8, 0, 0, 0, 0, 0]},
{"fn": "category", "args": {"cards": ["S6", "S7", "S8", "K9", "K10", "K11"], "hazards": ["STSH"]}, "expect": "Straight Flush"},
{"fn": "evaluate", "args": {"cards": ["S6", "S7", "S8", "K9", "K10", "K11"], "hazards": ["STSH"]}, "expect": [1, 0, 16, 16, 11, 0, 0, 0, 0, 0]}
]
""",
    "E25": r"""[
{"fn": "category", "args": {"cards": ["C7", "P8", "K9", "K10", "K11", "K12"], "hazards": ["STSH"]}, "expect": "Bridge"},
{"fn": "evaluate", "args": {"cards": ["C7", "P8", "K9", "K10", "K11", "K12"], "hazards": ["STSH"]}, "expect": [1, 0, 17, 17, 12, 11, 10, 9, 8, 7]},
{"fn": "category", "args": {"cards": ["S7", "S8", "K9", "K10", "K11", "K12"], "hazards": ["STSH"]}, "expect": "Chain of Command"},
{"fn": "evaluate", "args": {"cards": ["S7", "S8", "K9", "K10", "K11", "K12"], "hazards": ["STSH"]}, "expect": [1, 0, 18, 18, 12, 11, 10, 9, 8, 7]}
]
""",
    "E26": r"""[
{"fn": "category", "args": {"cards": ["C1", "P5", "S8"], "hazards": ["ENGB"]}, "expect": "High Card"},
{"fn": "evaluate", "args": {"cards": ["C1", "P5", "S8"], "hazards": ["ENGB"]}, "expect": [1, 0, 0, 0, 8, 5, 1]},
{"fn": "category", "args": {"cards": ["C5", "P5", "S8"], "hazards": ["ENGB"]}, "expect": "One Pair"},
{"fn": "evaluate", "args": {"cards": ["C5", "P5", "S8"], "hazards": ["ENGB"]}, "expect": [1, 0, 1, 1, 5, 8, 0]},
{"fn": "category", "args": {"cards": ["C6", "P7", "S8"], "hazards": ["ENGB"]}, "expect": "Straight"},
{"fn": "evaluate", "args": {"cards": ["C6", "P7", "S8"], "hazards": ["ENGB"]}, "expect": [1, 0, 2, 2, 8, 0, 0]},
{"fn": "category", "args": {"cards": ["S1", "S4", "S8"], "hazards": ["ENGB"]}, "expect": "Flush"},
{"fn": "evaluate", "args": {"cards": ["S1", "S4", "S8"], "hazards": ["ENGB"]}, "expect": [1, 0, 3, 3, 8, 4, 1]}
]
""",
    "E27": r"""[
{"fn": "category", "args": {"cards": ["C3", "P3", "S3"], "hazards": ["ENGB"]}, "expect": "Three of a Kind"},
{"fn": "evaluate", "args": {"cards": ["C3", "P3", "S3"], "hazards": ["ENGB"]}, "expect": [1, 0, 4, 4, 3, 0, 0]},
{"fn": "category", "args": {"cards": ["S3", "S4", "S5"], "hazards": ["ENGB"]}, "expect": "Straight Flush"},
{"fn": "evaluate", "args": {"cards": ["S3", "S4", "S5"], "hazards": ["ENGB"]}, "expect": [1, 0, 5, 5, 5, 0, 0]},
{"fn": "category", "args": {"cards": ["K9", "K11", "K12"], "hazards": ["ENGB"]}, "expect": "Command"},
{"fn": "evaluate", "args": {"cards": ["K9", "K11", "K12"], "hazards": ["ENGB"]}, "expect": [1, 0, 6, 6, 12, 11, 9]},
{"fn": "category", "args": {"cards": ["C8", "K9", "K10"], "hazards": ["ENGB"]}, "expect": "Straight Flush"},
{"fn": "evaluate", "args": {"cards": ["C8", "K9", "K10"], "hazards": ["ENGB"]}, "expect": [1, 0, 5, 5, 10, 0, 0]}
]
""",
    "E28": r"""[
{"fn": "evaluate", "args": {"cards": ["C2", "P5", "S5", "H5"], "hazards": ["BINY"]}, "expect": [1, 0, 8, 8, 5, 0, 0, 0]},
{"fn": "category", "args": {"cards": ["C2", "P5", "S5", "H5"], "hazards": ["BINY"]}, "expect": "Four of a Kind"},
{"fn": "evaluate", "args": {"cards": ["C2", "H2", "K11", "K12"], "hazards": ["BINY"]}, "expect": [1, 0, 9, 9, 12, 11, 10, 9]},
{"fn": "category", "args": {"cards": ["C2", "H2", "K11", "K12"], "hazards": ["BINY"]}, "expect": "Command"}
]
""",
    "E29": r"""[
{"fn": "evaluate", "args": {"cards": ["C2", "P5", "S7", "H8"], "hazards": ["BINY"]}, "expect": [1, 0, 3, 3, 8, 0, 0, 0]},
{"fn": "category", "args": {"cards": ["C2", "P5", "S7", "H8"], "hazards": ["BINY"]}, "expect": "Straight"},
{"fn": "evaluate", "args": {"cards": ["C2", "P5", "S7", "H8"], "hazards": ["BINY", "MUTI"]}, "expect": [1, 0, 0, 0, -8, -7, -5, -1]},
{"fn": "category", "args": {"cards": ["C2", "P5", "S7", "H8"], "hazards": ["BINY", "MUTI"]}, "expect": "High Card"}
]
""",
    "E30": r"""[
{"fn": "compare", "args": {"a": ["C1", "P2", "S4", "H6"], "b": ["C7", "P7", "S7", "H7"], "hazards": ["MUTI"]}, "expect": 1},
{"fn": "compare", "args": {"a": ["K9", "K10", "K11", "K12"], "b": ["C1", "P2", "S4", "H6"], "hazards": ["MUTI"]}, "expect": 1},
{"fn": "compare", "args": {"a": ["C8", "P6", "S3", "H1"], "b": ["C7", "P6", "S3", "H1"], "hazards": ["MUTI"]}, "expect": -1},
{"fn": "evaluate", "args": {"cards": ["C1", "P2", "S4", "H6"], "hazards": ["MUTI"]}, "expect": [1, 0, 0, 0, -6, -4, -2, -1]}
]
""",
    "E31": r"""[
{"fn": "evaluate", "args": {"cards": ["H8", "C5", "P5", "S1"], "hazards": ["HULL"]}, "expect": [1, 0, 1, 1, 5, 1, 0, 0]},
{"fn": "compare", "args": {"a": ["H8", "C5", "P5", "S1"], "b": ["C5", "P5", "S1", "C2"], "hazards": ["HULL"]}, "expect": -1},
{"fn": "category", "args": {"cards": ["H1", "H3", "H5", "H7"], "hazards": ["HULL"]}, "expect": "High Card"},
{"fn": "evaluate", "args": {"cards": ["H1", "H3", "H5", "H7"], "hazards": ["HULL"]}, "expect": [1, 0, 0, 0, 0, 0, 0, 0]}
]
""",
    "E32": r"""[
{"fn": "category", "args": {"cards": ["C3", "S5", "S6", "S8"], "hazards": ["TRST"]}, "expect": "Flush"},
{"fn": "evaluate", "args": {"cards": ["C3", "S5", "S6", "S8"], "hazards": ["TRST"]}, "expect": [1, 0, 2, 2, 8, 6, 5, 3]},
{"fn": "category", "args": {"cards": ["C2", "P2", "C6", "S6"], "hazards": ["TRST"]}, "expect": "Parley"},
{"fn": "category", "args": {"cards": ["C2", "P2", "C6", "S6"], "hazards": []}, "expect": "Two Pair"}
]
""",
    "E33": r"""[
{"fn": "evaluate", "args": {"cards": ["C3", "P5", "S7", "H8"], "hazards": ["TEAM"]}, "expect": [1, 1, 0, 0, 8, 7, 5, 3]},
{"fn": "compare", "args": {"a": ["C3", "P5", "S7", "H8"], "b": ["S4", "S5", "S6", "S7"], "hazards": ["TEAM"]}, "expect": 1},
{"fn": "compare", "args": {"a": ["C3", "P5", "S7", "H8"], "b": ["K9", "K10", "K11", "K12"], "hazards": ["TEAM"]}, "expect": -1},
{"fn": "evaluate", "args": {"cards": ["C3", "P5", "S7", "K9"], "hazards": ["TEAM"]}, "expect": [1, 0, 0, 0, 9, 7, 5, 3]}
]
""",
    "E34": r"""[
{"fn": "evaluate", "args": {"cards": ["C1", "P5", "S5", "H8"], "hazards": ["JUMP"]}, "expect": [1, 0, 5, 5, 8, 5, 0, 0]},
{"fn": "category", "args": {"cards": ["C1", "P5", "S5", "H8"], "hazards": ["JUMP"]}, "expect": "Two Pair"}
]
""",
    "E35": r"""[
{"fn": "evaluate", "args": {"cards": ["K12", "C5", "P5", "S2"], "hazards": ["EXPD"]}, "expect": [1, 0, 6, 5, 5, 2, 0, 0]},
{"fn": "category", "args": {"cards": ["K12", "C5", "P5", "S2"], "hazards": ["EXPD"]}, "expect": "Two Pair"},
{"fn": "evaluate", "args": {"cards": ["K12", "C1", "P3", "S6"], "hazards": ["EXPD"]}, "expect": [1, 0, 2, 1, 6, 3, 1, 0]},
{"fn": "compare", "args": {"a": ["K12", "C1", "P3", "S6"], "b": ["S1", "S3", "S5", "S7"], "hazards": ["EXPD"]}, "expect": -1},
{"fn": "evaluate", "args": {"cards": ["K9", "K10", "K11", "K12"], "hazards": ["EXPD"]}, "expect": [1, 0, 13, 9, 12, 11, 10, 9]}
]
""",
    "E36": r"""[
{"fn": "winners", "args": {"hands": [["C5", "C6", "C7", "C8"], ["S1", "P2", "C4", "H7"]], "hazards": ["GRAV"]}, "expect": [1]},
{"fn": "winners", "args": {"hands": [["C5", "C6", "C7", "C8"], ["K9", "K10", "K11", "K12"]], "hazards": ["GRAV"]}, "expect": []},
{"fn": "evaluate", "args": {"cards": ["K9", "K10", "K11", "K12"], "hazards": ["GRAV"]}, "expect": [0, 0, 9, 9, 12, 11, 10, 9]},
{"fn": "evaluate", "args": {"cards": ["S1", "P2", "C4", "H7"], "hazards": ["GRAV"]}, "expect": [1, 0, 0, 0, 7, 4, 2, 1]}
]
""",
    "E37": r"""[
{"fn": "best_key", "args": {"own": ["C3", "C4", "C5", "C6", "C7", "P8"], "hazards": ["STSH", "GRAV"]}, "expect": [0, 0, 6, 6, 8, 0, 0, 0, 0, 0]},
{"fn": "best_key", "args": {"own": ["C3", "C4", "C5", "S6", "C7", "P8"], "hazards": ["STSH", "GRAV"]}, "expect": [1, 0, 6, 6, 8, 0, 0, 0, 0, 0]}
]
""",
    "E38": r"""{"fn": "best_key", "args": {"own": ["C5", "P5", "S1"], "hazards": ["CHKN"], "shared": ["H5"]}, "expect": [1, 0, 4, 4, 5, 1, 0, 0]}
""",
    "E39": r"""{"fn": "best_key", "args": {"own": ["S4"], "hazards": ["HAUL"], "grid": ["C4", "P2", "S8", "H6", "P4", "C3", "P7", "S2", "H4"]}, "expect": [1, 0, 8, 8, 4, 0, 0, 0]}
""",
    "E40": r"""{"fn": "best_key", "args": {"own": ["C5", "P5", "S2", "H7"], "hazards": ["TAXS"], "tariffs": ["S5", "K12"]}, "expect": [1, 0, 4, 4, 5, 12, 0, 0]}
""",
    "E41": r"""{"fn": "best_key", "args": {"own": ["K9", "K10", "K11", "K12"], "hazards": ["TAXS"], "tariffs": ["C1", "P3"]}, "expect": [1, 0, 2, 2, 12, 11, 10, 3]}
""",
    "E42": r"""{"fn": "settle", "args": {"contributions": [5, 5, 5], "folded": [false, false, false], "hands": [["C5", "P5", "S8", "H2"], ["C8", "P6", "S3", "H1"], ["S5", "H5", "P8", "C2"]], "hazards": [], "dealer": 0}, "expect": {"payouts": [7, 0, 8], "unawarded": [0, 0, 0]}}
""",
    "E43": r"""{"fn": "settle", "args": {"contributions": [3, 9, 9, 5], "folded": [false, false, false, true], "hands": [["K9", "K10", "K11", "K12"], ["C7", "P7", "S7", "H7"], ["C2", "P2", "S6", "H6"], null], "hazards": [], "dealer": 3}, "expect": {"payouts": [12, 14, 0, 0], "unawarded": [0, 0, 0, 0]}}
""",
    "E44": r"""[
{"fn": "settle", "args": {"contributions": [7, 7, 3], "folded": [false, false, true], "hands": [["C5", "P5", "S8", "H2"], ["C8", "P6", "S3", "H1"], null], "hazards": ["FINE"], "dealer": 0, "dummy": ["C7", "P7", "S1", "H3"]}, "expect": {"payouts": [0, 0, 0], "unawarded": [7, 7, 3]}},
{"fn": "settle", "args": {"contributions": [7, 7, 3], "folded": [false, false, true], "hands": [["C5", "P5", "S8", "H2"], ["C8", "P6", "S3", "H1"], null], "hazards": ["FINE"], "dealer": 0, "dummy": ["C4", "P4", "S1", "H3"]}, "expect": {"payouts": [17, 0, 0], "unawarded": [0, 0, 0]}}
]
""",
    "E45": r"""[
{"fn": "settle", "args": {"contributions": [4, 4, 4], "folded": [false, false, false], "hands": [["C5", "C6", "C7", "C8"], ["P1", "P2", "P3", "P4"], ["K9", "K10", "K11", "K12"]], "hazards": ["GRAV"], "dealer": 1}, "expect": {"payouts": [0, 0, 0], "unawarded": [4, 4, 4]}},
{"fn": "settle", "args": {"contributions": [1, 9, 1], "folded": [true, false, true], "hands": [null, ["C1", "P2", "S3", "H5"], null], "hazards": ["GRAV"], "dealer": 0}, "expect": {"payouts": [0, 11, 0], "unawarded": [0, 0, 0]}}
]
""",
    "E46": r"""{"fn": "settle", "args": {"contributions": [3, 3, 0], "folded": [false, false, true], "hands": [["S1", "P2", "C4", "H7"], ["C5", "C6", "C7", "C8"], null], "hazards": ["GRAV"], "dealer": 0, "carry": [4, 4, 4]}, "expect": {"payouts": [18, 0, 0], "unawarded": [0, 0, 0]}}
""",
}


def cases() -> list[tuple[str, dict]]:
    """(example name, case) for every call of every block, in rulebook order."""
    found = []
    for name, block in BLOCKS.items():
        data = json.loads(block)
        found += [(name, case) for case in (data if isinstance(data, list) else [data])]
    return found
