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

