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


def valid(m, n, hFences, vFences):
    """The statement's constraints: 3 <= m, n <= 10^9; 1 to 600 distinct fences
    each, strictly inside the field (1 < hFences[i] < m, 1 < vFences[i] < n)."""
    if type(m) is not int or type(n) is not int or not (3 <= m <= 10 ** 9 and 3 <= n <= 10 ** 9):
        return False
    for fences, end in ((hFences, m), (vFences, n)):
        if not isinstance(fences, list) or not 1 <= len(fences) <= 600:
            return False
        if not all(type(f) is int and 1 < f < end for f in fences) or len(set(fences)) != len(fences):
            return False
    return True
