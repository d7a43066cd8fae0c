from collections import deque
from typing import List


class Solution:
    def continuousSubarrays(self, nums: List[int]) -> int:
        # Sliding window [left, right] with max - min <= 2, kept by two
        # monotonic deques of indices (maxima decreasing, minima increasing).
        maxq = deque()
        minq = deque()
        left = 0
        total = 0
        for right, x in enumerate(nums):
            while maxq and nums[maxq[-1]] <= x:
                maxq.pop()
            maxq.append(right)
            while minq and nums[minq[-1]] >= x:
                minq.pop()
            minq.append(right)
            while nums[maxq[0]] - nums[minq[0]] > 2:
                left += 1
                if maxq[0] < left:
                    maxq.popleft()
                if minq[0] < left:
                    minq.popleft()
            total += right - left + 1
        return total


def valid(nums):
    """The statement's domain: a non-empty list of positive integers."""
    return len(nums) >= 1 and all(x >= 1 for x in nums)
