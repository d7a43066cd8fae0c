from typing import List


class Solution:
    def minOperations(self, nums1: List[int], nums2: List[int]) -> int:
        n = len(nums1)

        def cost(last1, last2):
            ops = 0
            for i in range(n - 1):
                a, b = nums1[i], nums2[i]
                if a <= last1 and b <= last2:
                    continue
                if b <= last1 and a <= last2:
                    ops += 1
                else:
                    return None
            return ops

        best = None
        c = cost(nums1[-1], nums2[-1])
        if c is not None:
            best = c
        c = cost(nums2[-1], nums1[-1])
        if c is not None and (best is None or c + 1 < best):
            best = c + 1
        return -1 if best is None else best
