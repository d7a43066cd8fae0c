from typing import List


def countOfPairs(nums: List[int]) -> int:
    # With a = arr1: a[i] - a[i-1] >= max(0, nums[i] - nums[i-1]) and
    # 0 <= a[i] <= nums[i].  Subtracting the forced increments D[i] leaves a
    # free non-decreasing b >= 0 whose caps nums[i] - D[i] never increase, so
    # only the last cap m = nums[-1] - D[-1] matters: C(m + n, n) sequences.
    if min(nums) < 1:
        raise ValueError('nums[i] must be positive')
    MOD = 10 ** 9 + 7
    n = len(nums)
    m = nums[-1] - sum(max(0, nums[i] - nums[i - 1]) for i in range(1, n))
    if m < 0:
        return 0
    num = 1
    den = 1
    for i in range(1, n + 1):
        num = num * (m + i) % MOD
        den = den * i % MOD
    return num * pow(den, MOD - 2, MOD) % MOD
