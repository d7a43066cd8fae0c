from typing import List


class Solution:
    def maxBalancedSubsequenceSum(self, nums: List[int]) -> int:
        best_single = max(nums)
        if best_single <= 0:
            # any longer subsequence only adds non-positive numbers
            return best_single
        # balanced <=> nums[i] - i is non-decreasing along the chosen indices
        keys = [x - i for i, x in enumerate(nums)]
        sorted_keys = sorted(set(keys))
        rank = {v: i + 1 for i, v in enumerate(sorted_keys)}
        m = len(sorted_keys)
        tree = [0] * (m + 1)  # Fenwick tree of prefix maxima (0 = empty subsequence)
        ans = best_single
        for i, x in enumerate(nums):
            if x <= 0:
                continue  # a non-positive element never helps when a positive one exists
            r = rank[keys[i]]
            best = 0
            j = r
            while j > 0:
                if tree[j] > best:
                    best = tree[j]
                j -= j & -j
            cur = best + x
            if cur > ans:
                ans = cur
            j = r
            while j <= m:
                if tree[j] < cur:
                    tree[j] = cur
                j += j & -j
        return ans


def valid(nums):
    """The statement's constraints: 1 <= len(nums) <= 10^5, -10^9 <= nums[i] <= 10^9."""
    return isinstance(nums, list) and 1 <= len(nums) <= 10 ** 5 and all(type(x) is int and -10 ** 9 <= x <= 10 ** 9 for x in nums)
