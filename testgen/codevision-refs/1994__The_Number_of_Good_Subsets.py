from typing import List


def numberOfGoodSubsets(nums: List[int]) -> int:
    MOD = 10 ** 9 + 7
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    cnt = [0] * 31
    for x in nums:
        cnt[x] += 1
    # square-free numbers 2..30 as a bitmask of their primes
    masks = {}
    for v in range(2, 31):
        mask = 0
        y = v
        ok = True
        for i, p in enumerate(primes):
            if y % p == 0:
                y //= p
                if y % p == 0:
                    ok = False
                    break
                mask |= 1 << i
        if ok:
            masks[v] = mask
    # dp[mask] = ways to pick numbers > 1 (by index) whose primes form mask
    dp = [0] * (1 << len(primes))
    dp[0] = 1
    for v, mv in masks.items():
        c = cnt[v]
        if not c:
            continue
        for mask in range((1 << len(primes)) - 1, -1, -1):
            if dp[mask] and not mask & mv:
                dp[mask | mv] = (dp[mask | mv] + dp[mask] * c) % MOD
    ones = pow(2, cnt[1], MOD)  # any subset of the 1s may be added
    return (sum(dp[1:]) % MOD) * ones % MOD


def valid(nums):
    """The statement's domain: 1 <= len(nums) <= 10^5, 1 <= nums[i] <= 30."""
    return 1 <= len(nums) <= 10 ** 5 and all(
        isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 30 for x in nums)
