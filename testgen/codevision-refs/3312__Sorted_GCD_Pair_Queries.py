from bisect import bisect_right
from typing import List


def gcdValues(A: List[int], queries: List[int]) -> List[int]:
    pairs = len(A) * (len(A) - 1) // 2
    if min(A, default=0) < 1 or any(not 0 <= q < pairs for q in queries):
        raise ValueError('nums[i] >= 1 and 0 <= queries[i] < n * (n - 1) / 2')
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
