from collections import Counter
from itertools import accumulate
from operator import add, sub
from typing import List


class Solution:
    def countSubMultisets(self, nums: List[int], l: int, r: int) -> int:
        MOD = 10 ** 9 + 7
        if r < 0 or l > r:
            return 0
        occ = Counter(nums)
        zeros = occ.pop(0, 0)
        # ways[s]: number of sub-multisets of the positive values taken so far
        # (in increasing order) with sum s, for s <= cap = min(r, their total).
        ways = [1]
        cap = 0
        bound = 1  # every entry of ways is below bound
        reduce_mod = MOD.__rmod__
        for v in sorted(occ):
            if v > r:
                break
            c = occ[v]
            new_cap = min(r, cap + v * c)
            ext = ways + [0] * (new_cap - cap)
            size = new_cap + 1
            if c == 1:
                new = ext[:v] + list(map(add, ext[v:], ext[:size - v])) if v < size else ext
            elif c <= 3:
                # new[s] = ext[s] + ext[s - v] + ... + ext[s - c*v]
                new = ext[:]
                for m in range(1, c + 1):
                    shift = m * v
                    if shift >= size:
                        break
                    new[shift:] = map(add, new[shift:], ext[:size - shift])
            else:
                # The same sum as a prefix sum along each residue class mod v,
                # minus the part more than c copies back.
                pref = ext[:]
                for res in range(min(v, size)):
                    pref[res::v] = list(accumulate(ext[res::v]))
                span = (c + 1) * v
                new = pref
                if span < size:
                    new = pref[:span] + list(map(sub, pref[span:], pref[:size - span]))
            # Reduce modulo MOD only when the entries could outgrow 2^62.
            bound *= c + 1
            if bound >= 1 << 62:
                new = list(map(reduce_mod, new))
                bound = MOD
            ways = new
            cap = new_cap
        lo = max(l, 0)
        total = sum(ways[lo:r + 1]) % MOD if lo <= cap else 0
        # Each of the zeros may be taken 0..zeros times without changing a sum.
        return total * (zeros + 1) % MOD


def valid(nums, l, r):
    """The statement's domain: non-negative values and 0 <= l <= r."""
    return len(nums) >= 1 and all(v >= 0 for v in nums) and 0 <= l <= r
