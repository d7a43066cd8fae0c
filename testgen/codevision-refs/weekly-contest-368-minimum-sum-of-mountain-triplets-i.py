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
