from typing import List


class Solution:
    def maximumStrongPairXor(self, nums: List[int]) -> int:
        # x <= y form a strong pair iff y - x <= x, i.e. 2x >= y;
        # duplicates add nothing (a value may be paired with itself anyway).
        vals = sorted(set(nums))
        B = vals[-1].bit_length()
        # level[b][p]: how many values in the window have prefix p = v >> b
        level = [[0] * ((1 << (B - b)) + 1) for b in range(B + 1)]
        bits = range(B)
        rbits = range(B - 1, -1, -1)
        ans = 0
        left = 0
        for y in vals:
            for b in bits:
                level[b][y >> b] += 1
            while 2 * vals[left] < y:
                x = vals[left]
                for b in bits:
                    level[b][x >> b] -= 1
                left += 1
            # greedily pick the partner prefix that differs from y bit by bit
            cur = 0
            for b in rbits:
                cand = (cur << 1) | (((y >> b) & 1) ^ 1)
                if level[b][cand]:
                    cur = cand
                else:
                    cur = cand ^ 1
            r = cur ^ y
            if r > ans:
                ans = r
        return ans


def valid(nums):
    """The statement's constraints: 1 <= len(nums) <= 5 * 10^4, 1 <= nums[i] <= 2^20 - 1."""
    return isinstance(nums, list) and 1 <= len(nums) <= 5 * 10 ** 4 and all(type(x) is int and 1 <= x < 1 << 20 for x in nums)
