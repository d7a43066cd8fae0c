from math import gcd
from typing import List


def findKthSmallest(coins: List[int], k: int) -> int:
    # The amounts are the positive multiples of any coin.  count(x) = how many
    # amounts are <= x, by inclusion-exclusion over the subsets of coins; the
    # answer is the least x with count(x) >= k (binary search).
    if min(coins) < 1 or k < 1:
        raise ValueError('coins[i] >= 1 and k >= 1')
    cs = sorted(set(coins))
    # a coin that is a multiple of a smaller one adds no new amounts
    base = [c for i, c in enumerate(cs) if not any(c % d == 0 for d in cs[:i])]
    hi = min(base) * k  # the smallest coin alone already gives k amounts
    # coefficient of each lcm in the inclusion-exclusion sum
    terms = {}
    for c in base:
        new = {c: 1}
        for l, s in terms.items():
            m = l * c // gcd(l, c)
            if m <= hi:
                new[m] = new.get(m, 0) - s
        for l, s in new.items():
            terms[l] = terms.get(l, 0) + s
    terms = [(l, s) for l, s in terms.items() if s]

    def count(x):
        return sum(s * (x // l) for l, s in terms)

    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        if count(mid) >= k:
            hi = mid
        else:
            lo = mid + 1
    return lo
