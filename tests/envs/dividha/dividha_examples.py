"""The Checkable-API worked examples of the Dividha rulebook (section 11), transcribed verbatim.

Each line is `call == expected`. The complete-hand example is an environment test; its
showdown calls (evaluate, best_cards, settle) are here.
"""

from __future__ import annotations

EXAMPLES = {
    "E1": [
        'evaluate(["KH", "7D", "5B", "4H", "2D", "3B"]) == (0, 0, 0, 29, (13, 7, 5, 4, 3))',
        'hand_name(["KH", "7D", "5B", "4H", "2D", "3B"]) == "High Card"',
        'best_cards(["KH", "7D", "5B", "4H", "2D", "3B"]) == ["KH", "4H", "7D", "5B", "3B"]',
    ],
    "E2": [
        'evaluate(["AV", "KH", "QD", "JB", "5H", "3D"]) == (0, 0, 1, 33, (14, 13, 12, 11, 5))',
    ],
    "E3": [
        'evaluate(["AH", "JD", "7B", "5H", "3D"]) == (0, 0, 0, 24, (14, 11, 7, 5, 3))',
        'evaluate(["KH", "5D", "4B", "3H", "2D"]) == (0, 0, 0, 24, (13, 5, 4, 3, 2))',
        'compare(["AH", "JD", "7B", "5H", "3D"], ["KH", "5D", "4B", "3H", "2D"]) == 1',
    ],
    "E4": [
        'evaluate(["KH", "KD", "5B", "4H", "JD", "3B"]) == (1, 0, 0, 37, (13, 13, 11, 5, 4))',
        'evaluate(["AH", "AD", "5D", "4B", "JH", "3H"]) == (1, 0, 0, 19, (14, 14, 11, 5, 4))',
        'compare(["KH", "KD", "5B", "4H", "JD", "3B"], ["AH", "AD", "5D", "4B", "JH", "3H"]) == 1',
    ],
    "E5": [
        'evaluate(["QH", "QD", "KB", "AB", "3H", "2D"]) == (1, 0, 0, 33, (13, 12, 12, 3, 2))',
    ],
    "E6": [
        'evaluate(["KH", "KD", "5B", "5H", "2D", "AB"]) == (2, 0, 0, 32, (13, 13, 5, 5, 2))',
    ],
    "E7": [
        'evaluate(["QV", "QH", "QD", "3B", "4H", "7D"]) == (3, 0, 1, 38, (12, 12, 12, 7, 4))',
        'evaluate(["QH", "QD", "QB", "3V", "4V", "2D"]) == (3, 0, 0, 34, (12, 12, 12, 4, 3))',
        'best_cards(["QH", "QD", "QB", "3V", "4V", "2D"]) == ["QH", "QD", "QB", "4V", "3V"]',
        'compare(["QV", "QH", "QD", "3B", "4H", "7D"], ["QH", "QD", "QB", "3V", "4V", "2D"]) == 1',
    ],
    "E8": [
        'evaluate(["4H", "5D", "6B", "7H", "JD", "2B"]) == (4, 0, 0, 30, (11, 7, 6, 5, 4))',
    ],
    "E9": [
        'evaluate(["AH", "2D", "3B", "4H", "5D", "KB"]) == (4, 0, 0, 15, (5, 4, 3, 2, 1))',
    ],
    "E10": [
        'evaluate(["QH", "KD", "AB", "2H", "3D", "7B"]) == (0, 0, 0, 31, (13, 12, 7, 3, 2))',
    ],
    "E11": [
        'evaluate(["2V", "3V", "4H", "5D", "6B", "KB"]) == (4, 0, 2, 20, (6, 5, 4, 3, 2))',
        'evaluate(["KV", "QH", "JD", "7B", "6H", "2D"]) == (4, 0, 1, 40, (13, 12, 11, 7, 6))',
        'compare(["2V", "3V", "4H", "5D", "6B", "KB"], ["KV", "QH", "JD", "7B", "6H", "2D"]) == 1',
    ],
    "E12": [
        'evaluate(["AB", "JB", "5B", "3B", "2B", "KH"]) == (5, 0, 0, 19, (14, 11, 5, 3, 2))',
        'hand_name(["AB", "JB", "5B", "3B", "2B", "KH"]) == "Pure"',
    ],
    "E13": [
        'evaluate(["KH", "KD", "KB", "4H", "4D", "2B"]) == (6, 0, 0, 38, (13, 13, 13, 4, 4))',
    ],
    "E14": [
        'evaluate(["7H", "7D", "7B", "7V", "3D", "2B"]) == (7, 0, 1, 31, (7, 7, 7, 7, 3))',
    ],
    "E15": [
        'evaluate(["3D", "4D", "5D", "6D", "7D", "KH"]) == (8, 0, 0, 25, (7, 6, 5, 4, 3))',
        'hand_name(["3D", "4D", "5D", "6D", "7D", "KH"]) == "Pure Straight"',
    ],
    "E16": [
        'evaluate(["3V", "4V", "5V", "6V1", "7V", "6V2"]) == (8, 0, 5, 25, (7, 6, 5, 4, 3))',
        'best_cards(["3V", "4V", "5V", "6V1", "7V", "6V2"]) == ["7V", "6V1", "5V", "4V", "3V"]',
    ],
    "E17": [
        'evaluate(["6H", "6D", "6B", "6V1", "6V2", "AH"]) == (9, 0, 2, 30, (6, 6, 6, 6, 6))',
    ],
    "E18": [
        'evaluate(["AH", "AD", "AB", "AV", "GOD", "KH"]) == (9, 1, 2, 4, (14, 14, 14, 14, 14))',
    ],
    "E19": [
        'evaluate(["2H", "2D", "2B", "2V", "2L", "KH"]) == (9, 0, 2, 10, (2, 2, 2, 2, 2))',
    ],
    "E20": [
        'evaluate(["AH", "AD", "AB", "2V", "2L", "3H"]) == (9, 0, 2, 5, (14, 14, 14, 14, 14))',
        'compare(["2H", "2D", "2B", "2V", "2L", "KH"], ["AH", "AD", "AB", "2V", "2L", "3H"]) == 1',
    ],
    "E21": [
        'evaluate(["7L", "JL", "QL", "KL", "AL", "2H"]) == (10, 0, 5, 35, (14, 13, 12, 11, 7))',
        'hand_name(["7L", "JL", "QL", "KL", "AL", "2H"]) == "Pureblood Straight"',
    ],
    "E22": [
        'evaluate(["7H", "JH", "QH", "KH", "SATAN", "AL"]) == (10, 1, 1, 34, (14, 13, 12, 11, 7))',
    ],
    "E23": [
        'compare(["7L", "JL", "QL", "KL", "AL", "2H"], ["AH", "AD", "AB", "AV", "GOD", "KH"]) == 1',
    ],
    "E24": [
        'evaluate(["MIN", "RAL", "SAN", "6H", "6D", "AB"]) == (11, 0, 5, 30, (6, 6, 6, 6, 6))',
        'best_cards(["MIN", "RAL", "SAN", "6H", "6D", "AB"]) == ["6H", "6D", "MIN", "RAL", "SAN"]',
        'hand_name(["MIN", "RAL", "SAN", "6H", "6D", "AB"]) == "Pure Five-of-a-Kind"',
    ],
    "E25": [
        'evaluate(["MIN", "RAL", "SAN", "6H", "SATAN", "AB"]) == (9, 1, 5, 24, (6, 6, 6, 6, 6))',
    ],
    "E26": [
        'evaluate(["MIN", "RAL", "SAN", "KH", "4B", "3D"]) == (5, 0, 5, 32, (13, 6, 6, 6, 4))',
    ],
    "E27": [
        'evaluate(["MIN", "RAL", "KH", "4B", "3D", "JH"]) == (1, 0, 2, 34, (13, 11, 6, 6, 4))',
    ],
    "E28": [
        'evaluate(["6V1", "6V2", "KH", "QD", "7B", "4H"]) == (1, 0, 2, 38, (13, 12, 7, 6, 6))',
    ],
    "E29": [
        'is_legal_hand(["AV", "AL"]) == False',
        'is_legal_hand(["AV", "2L", "KH"]) == True',
        'is_legal_hand(["2V", "2L", "GOD"]) == True',
        'is_legal_hand(["GOD", "KL"]) == False',
        'is_legal_hand(["SATAN", "2V", "7H", "6V1"]) == False',
        'is_legal_hand(["GOD", "SATAN"]) == False',
        'is_legal_hand(["GOD", "SATAN"], divine_intervention=True) == True',
        'is_legal_hand(["GOD", "SATAN", "AV"], divine_intervention=True) == False',
    ],
    "E30": [
        'evaluate(["2L", "AV", "KH", "7D", "5B", "3H"]) == (1, 0, 2, 24, (14, 14, 13, 7, 5))',
    ],
    "E31": [
        'evaluate(["2L", "AH", "KD", "7B", "5D", "3H"]) == (0, 0, 1, 27, (13, 7, 5, 3, 2))',
    ],
    "E32": [
        'evaluate(["2L", "KV", "QV", "JV", "7V", "3H"]) == (4, 0, 5, 35, (14, 13, 12, 11, 7))',
    ],
    "E33": [
        'evaluate(["2V", "KV", "QV", "JV", "5V", "AH"]) == (5, 0, 5, 34, (13, 12, 11, 5, 2))',
    ],
    "E34": [
        'evaluate(["2V", "2L", "AH", "KD", "5B", "3D"]) == (3, 0, 2, 18, (14, 14, 14, 13, 5))',
        'evaluate(["2V", "2L", "KH", "QD", "7B", "4H"]) == (1, 0, 2, 30, (13, 12, 7, 2, 2))',
    ],
    "E35": [
        'evaluate(["AV", "KV", "QV", "AL", "KL", "QL"]) == (0, 0, 3, 20, (14, 13, 12))',
        'best_cards(["AV", "KV", "QV", "AL", "KL", "QL"]) == ["AV", "KV", "QV"]',
    ],
    "E36": [
        'evaluate(["AV", "KV", "AL", "KL", "7H", "2B"]) == (0, 0, 2, 20, (14, 13, 7, 2))',
        'best_cards(["AV", "KV", "AL", "KL", "7H", "2B"]) == ["7H", "2B", "AV", "KV"]',
    ],
    "E37": [
        'evaluate(["6H", "GOD", "AL", "KL", "QL", "JL"]) == (1, 1, 1, 6, (6, 6))',
        'best_cards(["6H", "GOD", "AL", "KL", "QL", "JL"]) == ["6H", "GOD"]',
        'compare(["6H", "GOD", "AL", "KL", "QL", "JL"], ["2L", "AV", "KH", "7D", "5B", "3H"]) == 1',
    ],
    "E38": [
        'evaluate(["2H", "2D", "2B", "3V", "4V", "5H"]) == (3, 0, 0, 15, (5, 4, 2, 2, 2))',
        'compare(["2H", "2D", "2B", "3V", "4V", "5H"], ["6H", "GOD", "AL", "KL", "QL", "JL"]) == 1',
    ],
    "E39": [
        'evaluate(["6H", "GOD", "3B", "4D", "JH", "2B"]) == (4, 1, 1, 15, (6, 5, 4, 3, 2))',
    ],
    "E40": [
        'evaluate(["KV", "QV", "JV", "5V", "GOD", "AH"]) == (5, 1, 5, 32, (14, 13, 12, 11, 5))',
        'evaluate(["KV", "QV", "JV", "5V", "3V", "AH"]) == (5, 0, 5, 35, (13, 12, 11, 5, 3))',
        'compare(["KV", "QV", "JV", "5V", "GOD", "AH"], ["KV", "QV", "JV", "5V", "3V", "AH"]) == 1',
    ],
    "E41": [
        'evaluate(["JH", "JD", "JB", "SATAN", "4D", "3B"]) == (7, 1, 1, 28, (11, 11, 11, 11, 4))',
        'evaluate(["JH", "JD", "JB", "4D", "4B", "3B"]) == (6, 0, 0, 32, (11, 11, 11, 4, 4))',
    ],
    "E42": [
        'evaluate(["GOD", "SATAN", "2H", "3D", "5B", "7H"], divine_intervention=True) == (12, 1, 2, 0, ())',
        'hand_name(["GOD", "SATAN", "2H", "3D", "5B", "7H"], divine_intervention=True) == "Divine Intervention"',
        'evaluate(["GOD", "SATAN", "2H", "3D", "5B", "7H"]) == (1, 1, 1, 17, (7, 7, 5, 3, 2))',
        'best_cards(["GOD", "SATAN", "2H", "3D", "5B", "7H"]) == ["7H", "2H", "3D", "5B", "GOD"]',
        'compare(["GOD", "SATAN", "2H", "3D", "5B", "7H"], ["MIN", "RAL", "SAN", "6H", "6D", "AB"], divine_intervention=True) == 1',
        'compare(["GOD", "SATAN", "2H", "3D", "5B", "7H"], ["MIN", "RAL", "SAN", "6H", "6D", "AB"]) == -1',
    ],
    "E43": [
        'compare(["3H", "4D", "5B", "6H", "7D", "2B"], ["3D", "4B", "5H", "6D", "7B", "2H"]) == 0',
    ],
    "E44": [
        'split_chips(4, "EVEN") == (2, 2)',
        'split_chips(5, "EVEN") == (3, 2)',
        'split_chips(6, "WIN") == (6, 0)',
        'split_chips(6, "LOSE") == (0, 6)',
    ],
    "E45": [
        'raise_options("fixed", 8, 2, 50, 2) == [2, None, None, None]',
        'raise_options("fixed", 8, 2, 3, 2) == [1, None, None, None]',
        'raise_options("fixed", 8, 2, 2, 2) == [None, None, None, None]',
        'raise_options("pot", 12, 4, 100, 4) == [4, 8, 16, None]',
        'raise_options("no", 12, 4, 30, 4) == [4, 8, 16, 26]',
        'raise_options("no", 6, 0, 10, 4) == [4, None, 6, 10]',
        'raise_options("no", 40, 10, 30, 10) == [10, 20, None, None]',
    ],
    "E46": [
        'settle([1, 9], [9, 1], [["KH", "KD", "KB", "4H", "4D", "2B"], ["QH", "7D", "5B", "3D", "2H", "JB"]], 0) == [10, 10]',
        'settle([1, 9], [9, 1], [["QH", "7D", "5B", "3D", "2H", "JB"], ["KH", "KD", "KB", "4H", "4D", "2B"]], 0) == [10, 10]',
        'settle([9, 9], [1, 1], [["KH", "KD", "KB", "4H", "4D", "2B"], ["QH", "7D", "5B", "3D", "2H", "JB"]], 0) == [18, 2]',
    ],
    "E47": [
        'settle([1, 5, 9], [9, 5, 1], [["KH", "KD", "KB", "4H", "4D", "2B"], ["QH", "7D", "5B", "3D", "2H", "JB"], None], 1) == [7, 23, 0]',
    ],
    "E48": [
        'compare(["3H", "4B", "5H", "6B", "7H", "AB"], ["3B", "4H", "5B", "6H", "7B", "AD"]) == 0',
        'settle([3, 3, 3], [1, 1, 1], [["QH", "7D", "5D", "3D", "2H", "JB"], ["3H", "4B", "5H", "6B", "7H", "AB"], ["3B", "4H", "5B", "6H", "7B", "AD"]], 0) == [3, 5, 4]',
        'settle([1, 1, 1], [2, 2, 1], [["3H", "4B", "5H", "6B", "7H", "AB"], ["3B", "4H", "5B", "6H", "7B", "AD"], ["KH", "KD", "KB", "QH", "QD", "2B"]], 2) == [3, 2, 3]',
    ],
    "E49": [
        'settle([3, 1, 1], [1, 1, 3], [None, ["AH", "KD"], None], 0) == [0, 10, 0]',
    ],
    "E50": [
        'settle([4, 10, 10], [1, 1, 1], [["KH", "KD", "KB", "4H", "4D", "2B"], ["QD", "QB", "AH", "6D", "5H", "3B"], ["QH", "7D", "5B", "3D", "2H", "JB"]], 0) == [12, 12, 3]',
    ],
    "E51": [
        'settle([1, 1], [1, 1], [["KH", "KD", "KB", "4H", "4D", "2B"], ["QH", "7D", "5B", "3D", "2H", "JB"]], 0, forfeit=7) == [9, 2]',
    ],
    "E52": [
        'evaluate(["KH", "KV", "7D", "5B", "KB", "3H"]) == (3, 0, 1, 42, (13, 13, 13, 7, 5))',
        'evaluate(["2L", "6D", "QB", "4B", "3D", "7L"]) == (0, 0, 2, 28, (12, 7, 6, 4, 2))',
        'best_cards(["2L", "6D", "QB", "4B", "3D", "7L"]) == ["6D", "QB", "4B", "7L", "2L"]',
        'settle([1, 7, 2], [1, 1, 6], [None, ["KH", "KV", "7D", "5B", "KB", "3H"], ["2L", "6D", "QB", "4B", "3D", "7L"]], 0) == [0, 10, 8]',
    ],
}


def split_example(line: str) -> tuple[str, str]:
    """The call and the expected value of an example line."""
    call, expected = line.rsplit(" == ", 1)
    return call, expected
