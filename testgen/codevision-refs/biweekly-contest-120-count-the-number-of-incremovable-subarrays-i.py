from typing import List


class Solution:
    def incremovableSubarrayCount(self, nums: List[int]) -> int:
        n = len(nums)
        # inc_pre[i]: nums[0..i-1] strictly increasing; inc_suf[j]: nums[j..n-1].
        inc_pre = [True] * (n + 1)
        for i in range(2, n + 1):
            inc_pre[i] = inc_pre[i - 1] and nums[i - 2] < nums[i - 1]
        inc_suf = [True] * (n + 1)
        for j in range(n - 2, -1, -1):
            inc_suf[j] = inc_suf[j + 1] and nums[j] < nums[j + 1]
        count = 0
        # Remove nums[i..j] (inclusive); the rest is nums[0..i-1] + nums[j+1..].
        for i in range(n):
            if not inc_pre[i]:
                break
            for j in range(i, n):
                if not inc_suf[j + 1]:
                    continue
                if i == 0 or j == n - 1 or nums[i - 1] < nums[j + 1]:
                    count += 1
        return count
