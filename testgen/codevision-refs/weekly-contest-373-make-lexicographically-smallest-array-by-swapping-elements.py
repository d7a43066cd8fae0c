from typing import List


class Solution:
    def lexicographicallySmallestArray(self, nums: List[int], limit: int) -> List[int]:
        n = len(nums)
        order = sorted(range(n), key=lambda i: nums[i])
        res = [0] * n
        start = 0
        # values whose sorted neighbours are within limit form one swappable group
        for end in range(1, n + 1):
            if end == n or nums[order[end]] - nums[order[end - 1]] > limit:
                group = order[start:end]
                positions = sorted(group)
                for pos, idx in zip(positions, group):
                    res[pos] = nums[idx]
                start = end
        return res


def valid(nums, limit):
    """The statement's constraints: 1 <= len(nums) <= 10^5, 1 <= nums[i] <= 10^9, 1 <= limit <= 10^9."""
    return (
        isinstance(nums, list) and 1 <= len(nums) <= 10 ** 5
        and all(type(x) is int and 1 <= x <= 10 ** 9 for x in nums)
        and type(limit) is int and 1 <= limit <= 10 ** 9
    )
