from bisect import bisect_right
from typing import List


def gcdValues(A: List[int], queries: List[int]) -> List[int]:
    m = max(A)
    cnt = [0] * (m + 1)
    for x in A:
        cnt[x] += 1
    # exact[g] = number of pairs i < j with gcd exactly g
    exact = [0] * (m + 1)
    for g in range(m, 0, -1):
        c = sum(cnt[g::g])
        exact[g] = c * (c - 1) // 2 - sum(exact[2 * g::g])
    # prefix[g] = number of pairs with gcd <= g
    prefix = [0] * (m + 1)
    run = 0
    for g in range(1, m + 1):
        run += exact[g]
        prefix[g] = run
    # gcdPairs[q] is the least g with prefix[g] > q
    return [bisect_right(prefix, q) for q in queries]
