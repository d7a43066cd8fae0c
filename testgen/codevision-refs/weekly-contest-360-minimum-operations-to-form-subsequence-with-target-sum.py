from typing import List


class Solution:
    def minOperations(self, nums: List[int], target: int) -> int:
        if sum(nums) < target:
            return -1
        cnt = [0] * 64
        for x in nums:
            cnt[x.bit_length() - 1] += 1
        ops = 0
        i = 0
        while i < 62:
            if (target >> i) & 1:
                if cnt[i] > 0:
                    cnt[i] -= 1
                else:
                    # split the smallest larger power available
                    j = i + 1
                    while j < 63 and cnt[j] == 0:
                        j += 1
                    if j >= 63:
                        return -1
                    cnt[j] -= 1
                    for k in range(i, j):
                        cnt[k] += 1  # one copy of each 2^k kept; the extra 2^i is used
                    ops += j - i
            # unused powers of this size combine into the next size
            cnt[i + 1] += cnt[i] // 2
            i += 1
        return ops
