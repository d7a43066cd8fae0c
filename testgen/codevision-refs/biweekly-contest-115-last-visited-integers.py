from typing import List


class Solution:
    def lastVisitedIntegers(self, words: List[str]) -> List[int]:
        seen = []
        result = []
        streak = 0
        for w in words:
            if w == "prev":
                streak += 1
                if streak <= len(seen):
                    result.append(seen[-streak])
                else:
                    result.append(-1)
            else:
                streak = 0
                seen.append(int(w))
        return result


def valid(words):
    """The statement's domain: each word is "prev" or a positive integer
    1..100 written in decimal (no sign, no leading zeros)."""
    for w in words:
        if w == "prev":
            continue
        if not (isinstance(w, str) and w.isascii() and w.isdigit()) or w[0] == "0":
            return False
        if not 1 <= int(w) <= 100:
            return False
    return len(words) >= 1
