from typing import List


def canTraverseAllPairs(nums: List[int]) -> bool:
    n = len(nums)
    if n <= 1:
        return True
    if min(nums) < 1:
        raise ValueError('nums[i] must be >= 1')
    m = max(nums)
    # smallest prime factor sieve
    spf = list(range(m + 1))
    i = 2
    while i * i <= m:
        if spf[i] == i:
            for j in range(i * i, m + 1, i):
                if spf[j] == j:
                    spf[j] = i
        i += 1
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner = {}  # prime -> an index whose number it divides
    for idx, x in enumerate(nums):
        if x == 1:
            return False  # 1 shares no factor with anything (and n >= 2)
        while x > 1:
            p = spf[x]
            while x % p == 0:
                x //= p
            if p in owner:
                ra, rb = find(idx), find(owner[p])
                if ra != rb:
                    parent[ra] = rb
            else:
                owner[p] = idx
    root = find(0)
    return all(find(i) == root for i in range(n))
