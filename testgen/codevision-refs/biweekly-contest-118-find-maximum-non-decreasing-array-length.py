from collections import deque
from typing import List


class Solution:
    def findMaximumLength(self, nums: List[int]) -> int:
        # dp[i]: the most pieces the prefix nums[:i] splits into with
        # non-decreasing sums; last[i]: the smallest last-piece sum among such
        # splits.  Both are achieved by cutting at the largest j with
        # pre[j] + last[j] <= pre[i]; candidates j are kept in a deque whose
        # keys pre[j] + last[j] increase.
        n = len(nums)
        pre = [0] * (n + 1)
        for i, v in enumerate(nums):
            pre[i + 1] = pre[i] + v
        dp = [0] * (n + 1)
        last = [0] * (n + 1)
        q = deque([0])
        for i in range(1, n + 1):
            while len(q) > 1 and pre[q[1]] + last[q[1]] <= pre[i]:
                q.popleft()
            j = q[0]
            dp[i] = dp[j] + 1
            last[i] = pre[i] - pre[j]
            key = pre[i] + last[i]
            while q and pre[q[-1]] + last[q[-1]] >= key:
                q.pop()
            q.append(i)
        return dp[n]


def valid(nums):
    """The statement's domain: a non-empty list of positive integers."""
    return len(nums) >= 1 and all(v >= 1 for v in nums)
