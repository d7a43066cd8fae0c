from typing import List


class Solution:
    def best_schedule(self, gigs: List[List[int]]) -> int:
        def finished_by(ends, limit, count):
            lo, hi = 0, count
            while lo < hi:
                mid = (lo + hi) // 2
                if ends[mid] <= limit:
                    lo = mid + 1
                else:
                    hi = mid
            return lo

        gigs = sorted(gigs, key=lambda gig: gig[0] + gig[1])
        ends = [start + length for start, length, _ in gigs]
        earned = [0] * (len(gigs) + 1)
        for i, (start, length, pay) in enumerate(gigs):
            before = finished_by(ends, start, i)
            take = earned[before] + pay
            if take > earned[i]:
                earned[i + 1] = take
            else:
                earned[i + 1] = earned[i]
        return earned[-1]
