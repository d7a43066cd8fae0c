from math import gcd
from typing import List


def coutPairs(nums: List[int], k: int) -> int:
    # nums[i] * nums[j] is divisible by k iff gcd(nums[i], k) * gcd(nums[j], k)
    # is divisible by k; group the numbers by their gcd with k (a divisor of k).
    cnt = {}
    for x in nums:
        g = gcd(x, k)
        cnt[g] = cnt.get(g, 0) + 1
    keys = list(cnt)
    total = 0
    for i, a in enumerate(keys):
        ca = cnt[a]
        if (a * a) % k == 0:
            total += ca * (ca - 1) // 2
        for b in keys[i + 1:]:
            if (a * b) % k == 0:
                total += ca * cnt[b]
    return total
