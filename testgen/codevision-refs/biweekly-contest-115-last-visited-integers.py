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
