from typing import List


class Solution:
    def maximizeSquareHoleArea(self, n: int, m: int, hBars: List[int], vBars: List[int]) -> int:
        def widest_gap(bars: List[int]) -> int:
            # Removing a run of r consecutive bars leaves a gap of r + 1.
            values = sorted(bars)
            best = 1
            run = 0
            prev = None
            for v in values:
                run = run + 1 if prev is not None and v == prev + 1 else 1
                prev = v
                best = max(best, run + 1)
            return best

        side = min(widest_gap(hBars), widest_gap(vBars))
        return side * side


def valid(n, m, hBars, vBars):
    """The statement's domain: n, m >= 1; non-empty lists of distinct bars,
    hBars within [2, n + 1] and vBars within [2, m + 1]."""
    if n < 1 or m < 1 or not hBars or not vBars:
        return False
    if len(set(hBars)) != len(hBars) or len(set(vBars)) != len(vBars):
        return False
    return all(2 <= b <= n + 1 for b in hBars) and all(2 <= b <= m + 1 for b in vBars)
