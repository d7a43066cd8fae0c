from typing import List


class Solution:
    def maximizeSquareArea(self, m: int, n: int, hFences: List[int], vFences: List[int]) -> int:
        MOD = 10 ** 9 + 7

        def gaps(fences, end):
            pos = sorted(set(fences) | {1, end})
            out = set()
            for i in range(len(pos)):
                a = pos[i]
                for b in pos[i + 1:]:
                    out.add(b - a)
            return out

        common = gaps(hFences, m) & gaps(vFences, n)
        if not common:
            return -1
        side = max(common)
        return side * side % MOD
