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
    """Inputs the statement's definitions apply to: every fence strictly inside
    the field (1 < hFences[i] < m, 1 < vFences[i] < n), no fence twice. More
    fences or larger fields than the constraints (600 fences, 10^9) are kept."""
    if type(m) is not int or type(n) is not int:
        return False
    for fences, end in ((hFences, m), (vFences, n)):
        if not isinstance(fences, list):
            return False
        if not all(type(f) is int and 1 < f < end for f in fences) or len(set(fences)) != len(fences):
            return False
    return True
