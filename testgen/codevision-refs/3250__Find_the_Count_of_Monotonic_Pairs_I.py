from typing import List


def countOfPairs(nums: List[int]) -> int:
    # arr1 = a (non-decreasing), arr2 = nums - a (non-increasing) means
    # a[i] - a[i-1] >= max(0, nums[i] - nums[i-1]).  DP over the value of a[i]
    # with prefix sums.
    if min(nums) < 1:
        raise ValueError('nums[i] must be positive')
    MOD = 10 ** 9 + 7
    prev = [1] * (nums[0] + 1)  # a[0] in 0..nums[0]
    for i in range(1, len(nums)):
        need = max(0, nums[i] - nums[i - 1])
        pre = [0] * (len(prev) + 1)
        for v, w in enumerate(prev):
            pre[v + 1] = (pre[v] + w) % MOD
        cur = [0] * (nums[i] + 1)
        for v in range(nums[i] + 1):
            top = min(v - need, len(prev) - 1)  # a[i-1] <= v - need
            if top >= 0:
                cur[v] = pre[top + 1]
        prev = cur
    return sum(prev) % MOD
