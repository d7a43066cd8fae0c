from typing import List


class Solution:
    def countSubarrays(self, nums: List[int], k: int) -> int:
        m = max(nums)
        pos = [i for i, x in enumerate(nums) if x == m]
        total = 0
        j = 0  # number of max positions <= r
        for r in range(len(nums)):
            while j < len(pos) and pos[j] <= r:
                j += 1
            if j >= k:
                # the left end may be anywhere up to the k-th last max position
                total += pos[j - k] + 1
        return total


def valid(nums, k):
    """The statement's constraints: 1 <= len(nums) <= 10^5, 1 <= nums[i] <= 10^6, 1 <= k <= 10^5."""
    return (
        isinstance(nums, list) and 1 <= len(nums) <= 10 ** 5
        and all(type(x) is int and 1 <= x <= 10 ** 6 for x in nums)
        and type(k) is int and 1 <= k <= 10 ** 5
    )
