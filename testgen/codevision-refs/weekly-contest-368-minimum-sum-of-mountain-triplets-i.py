from typing import List


class Solution:
    def minimumSum(self, nums: List[int]) -> int:
        n = len(nums)
        INF = float('inf')
        suffix_min = [INF] * (n + 1)
        for i in range(n - 1, -1, -1):
            suffix_min[i] = min(suffix_min[i + 1], nums[i])
        best = INF
        left_min = INF
        for j in range(n):
            right_min = suffix_min[j + 1]
            if left_min < nums[j] and right_min < nums[j]:
                best = min(best, left_min + nums[j] + right_min)
            left_min = min(left_min, nums[j])
        return -1 if best == INF else best


def valid(nums):
    """The statement's constraints: 3 <= len(nums) <= 50, 1 <= nums[i] <= 50."""
    return isinstance(nums, list) and 3 <= len(nums) <= 50 and all(type(x) is int and 1 <= x <= 50 for x in nums)
